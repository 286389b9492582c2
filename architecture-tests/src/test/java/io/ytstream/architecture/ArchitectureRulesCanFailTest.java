package io.ytstream.architecture;

import static org.junit.jupiter.api.Assertions.assertThrows;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each rule catches a deliberately broken fixture and passes a clean one, so a green run means
 * something.
 */
class ArchitectureRulesCanFailTest {

  private static final String FIXTURES = "io.ytstream.architecture.fixtures";
  private static JavaClasses fixtures;

  @BeforeAll
  static void importFixtures() {
    fixtures = new ClassFileImporter().importPackages(FIXTURES);
  }

  @Test
  void jdkOnlyRuleCatchesGuava() {
    ArchitectureRules.dependsOnJdkOnly(FIXTURES + ".pure").check(fixtures);
    assertThrows(
        AssertionError.class,
        () -> ArchitectureRules.dependsOnJdkOnly(FIXTURES + ".leaky").check(fixtures));
  }

  @Test
  void portsRuleCatchesForeignDependency() {
    ArchitectureRules.portsDependOnCoreOnly(FIXTURES + ".pure", FIXTURES + ".adapterb")
        .check(fixtures);
    assertThrows(
        AssertionError.class,
        () ->
            ArchitectureRules.portsDependOnCoreOnly(FIXTURES + ".leaky", FIXTURES + ".pure")
                .check(fixtures));
  }

  @Test
  void clockRuleCatchesWallClockAndGlobalRandom() {
    ArchitectureRules.noWallClockOrGlobalRandom(FIXTURES + ".pure").check(fixtures);
    assertThrows(
        AssertionError.class,
        () -> ArchitectureRules.noWallClockOrGlobalRandom(FIXTURES + ".wallclock").check(fixtures));
    assertThrows(
        AssertionError.class,
        () -> ArchitectureRules.noWallClockOrGlobalRandom(FIXTURES + ".random").check(fixtures));
  }

  @Test
  void orderRuleCatchesHashMap() {
    ArchitectureRules.noHashOrderedCollections(FIXTURES + ".pure").check(fixtures);
    assertThrows(
        AssertionError.class,
        () -> ArchitectureRules.noHashOrderedCollections(FIXTURES + ".leaky").check(fixtures));
  }

  @Test
  void infrastructureRuleCatchesGuava() {
    ArchitectureRules.noInfrastructureTypes(FIXTURES + ".pure").check(fixtures);
    assertThrows(
        AssertionError.class,
        () -> ArchitectureRules.noInfrastructureTypes(FIXTURES + ".leaky").check(fixtures));
  }

  @Test
  void isolationRuleCatchesAdapterToAdapterDependency() {
    ArchitectureRules.adapterIsolated(FIXTURES + ".adapterb", FIXTURES + ".adaptera")
        .check(fixtures);
    assertThrows(
        AssertionError.class,
        () ->
            ArchitectureRules.adapterIsolated(FIXTURES + ".adaptera", FIXTURES + ".adapterb")
                .check(fixtures));
  }

  @Test
  void decisionRuleCatchesAnAdapterCallingADecision() {
    String decision = FIXTURES + ".adapterb.AdapterB";
    ArchitectureRules.makesNoProtocolDecisions(FIXTURES + ".adapterb", decision).check(fixtures);
    assertThrows(
        AssertionError.class,
        () ->
            ArchitectureRules.makesNoProtocolDecisions(FIXTURES + ".adaptera", decision)
                .check(fixtures));
  }

  @Test
  void codecRuleCatchesAWireFormatClassAndAUseOfTheTypeLibrary() {
    ArchitectureRules.holdsNoCodec(FIXTURES + ".pure", FIXTURES + ".adapterb").check(fixtures);
    assertThrows(
        AssertionError.class,
        () ->
            ArchitectureRules.holdsNoCodec(FIXTURES + ".codec", FIXTURES + ".adapterb")
                .check(fixtures));
    // adaptera uses adapterb, here standing in for the type library.
    assertThrows(
        AssertionError.class,
        () ->
            ArchitectureRules.holdsNoCodec(FIXTURES + ".adaptera", FIXTURES + ".adapterb")
                .check(fixtures));
  }

  @Test
  void applicationRuleCatchesForeignDependency() {
    ArchitectureRules.applicationDependsOnCoreAndPortsOnly(
            FIXTURES + ".pure", FIXTURES + ".adapterb", FIXTURES + ".adaptera")
        .check(fixtures);
    assertThrows(
        AssertionError.class,
        () ->
            ArchitectureRules.applicationDependsOnCoreAndPortsOnly(
                    FIXTURES + ".leaky", FIXTURES + ".pure", FIXTURES + ".adaptera")
                .check(fixtures));
  }

  @Test
  void cycleRuleCatchesTwoPackagesThatUseEachOther() {
    ArchitectureRules.packagesFreeOfCycles(FIXTURES).check(fixtures);
    assertThrows(
        AssertionError.class,
        () -> ArchitectureRules.packagesFreeOfCycles(FIXTURES + ".cycle").check(fixtures));
  }

  @Test
  void dependencyRuleCatchesTheUseItForbids() {
    ArchitectureRules.doesNotDependOn(FIXTURES + ".adapterb", FIXTURES + ".adaptera", "fixture")
        .check(fixtures);
    assertThrows(
        AssertionError.class,
        () ->
            ArchitectureRules.doesNotDependOn(
                    FIXTURES + ".adaptera", FIXTURES + ".adapterb", "fixture")
                .check(fixtures));
  }

  @Test
  void decisionPlaceRuleCatchesADecisionOutsideItsPackageAndOneThatIsGone() {
    ArchitectureRules.decisionsResideIn(FIXTURES + ".plan", "TaskAssigner").check(fixtures);
    assertThrows(
        AssertionError.class,
        () ->
            ArchitectureRules.decisionsResideIn(FIXTURES + ".plan", "TaskAssigner", "OutputTablets")
                .check(fixtures));
    assertThrows(
        AssertionError.class,
        () -> ArchitectureRules.decisionsResideIn(FIXTURES + ".plan", "Gone").check(fixtures));
  }

  @Test
  void pureDecisionRuleCatchesStaticFunctionsThatUseNoPort() {
    // A use case over a port, and static functions over a port (or a codec) pass.
    ArchitectureRules.holdsNoPureDecisions(FIXTURES + ".steps", List.of(FIXTURES + ".port"))
        .check(fixtures);
    assertThrows(
        AssertionError.class,
        () ->
            ArchitectureRules.holdsNoPureDecisions(
                    FIXTURES + ".misplaced", List.of(FIXTURES + ".port"))
                .check(fixtures));
    // The rule is about the shape, whatever the package: core's decisions have it.
    assertThrows(
        AssertionError.class,
        () ->
            ArchitectureRules.holdsNoPureDecisions(FIXTURES + ".plan", List.of(FIXTURES + ".port"))
                .check(fixtures));
    ArchitectureRules.holdsNoPureDecisions(
            FIXTURES + ".misplaced", List.of(FIXTURES + ".port"), "OutputTablets")
        .check(fixtures);
  }
}
