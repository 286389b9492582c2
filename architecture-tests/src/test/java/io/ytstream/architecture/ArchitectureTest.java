package io.ytstream.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The architecture note's dependency rules, checked over the production classes of every module.
 */
class ArchitectureTest {

  static final String TYPES = "io.ytstream.types";
  static final String CORE = "io.ytstream.core";
  static final String PORTS = "io.ytstream.ports";
  static final String APPLICATION = "io.ytstream.application";

  /** Core's protocol decisions: the application's use cases call them, adapters do not. */
  static final String[] PROTOCOL_DECISIONS = {
    "io.ytstream.core.plan.BatchPlanner",
    "io.ytstream.core.plan.StaticReadPlanner",
    "io.ytstream.core.plan.StartOffsetResolver",
    "io.ytstream.core.delivery.TransactionalBatchCommit",
    "io.ytstream.core.delivery.TransactionalRecovery",
    "io.ytstream.core.delivery.OutOfTransactionBatch",
    "io.ytstream.core.delivery.CheckpointRecovery",
    "io.ytstream.core.delivery.BatchShareNumbering",
    "io.ytstream.core.plan.QueuePositions",
    "io.ytstream.core.plan.NewPartitionPlacement",
    "io.ytstream.core.plan.RangesBetween",
    "io.ytstream.core.plan.TaskAssigner",
    "io.ytstream.core.plan.RealTimeTaskGroups",
    "io.ytstream.core.commit.CommitLagRule",
    "io.ytstream.core.commit.CommitErrorClassifier"
  };

  /**
   * Which core package holds which decisions. Planning: where a batch starts and ends, new
   * partitions, trimmed rows, ranges and tasks, byte caps, static reads, real-time task groups.
   * Delivery: the delivery modes' state machines, recovery, a share's numbering, which output
   * tablet a row goes to. Commit: the commit-lag rule and what a commit error means.
   */
  static final Map<String, List<String>> DECISIONS_BY_PACKAGE =
      new TreeMap<>(
          Map.of(
              "io.ytstream.core.plan",
              List.of(
                  "StartOffsetResolver",
                  "QueuePositions",
                  "NewPartitionPlacement",
                  "BatchPlanner",
                  "TriggerBudget",
                  "ByteBudget",
                  "RangesBetween",
                  "TaskAssigner",
                  "StaticReadPlanner",
                  "RealTimeTaskGroups"),
              "io.ytstream.core.delivery",
              List.of(
                  "TransactionalBatchCommit",
                  "TransactionalRecovery",
                  "OutOfTransactionBatch",
                  "CheckpointRecovery",
                  "BatchShareNumbering",
                  "OutputTablets"),
              "io.ytstream.core.commit",
              List.of("CommitLagRule", "CommitErrorClassifier")));

  /**
   * Application classes with only static functions, no port and no codec that are not protocol
   * decisions: how Spark recognizes a stopped query's interruption is the engine's convention,
   * which the use cases and adapters share.
   */
  static final String[] APPLICATION_HELPERS_NOT_DECISIONS = {"Interruptions"};

  /** Every adapter package, present or still to come. */
  static final List<String> ADAPTERS =
      List.of("io.ytstream.inmemory", "io.ytstream.ytsaurus", "io.ytstream.spark");

  /**
   * The emulator serves the in-memory cluster over HTTP; it shares no code with the HTTP client.
   */
  static final String EMULATOR = "io.ytstream.emulator";

  private static JavaClasses production;

  @BeforeAll
  static void importClasses() {
    production =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.ytstream");
  }

  @Test
  void coreDependsOnTheJdkOnly() {
    ArchitectureRules.dependsOnJdkOnly(CORE).check(production);
  }

  @Test
  void theTypeLibraryDependsOnTheJdkOnly() {
    ArchitectureRules.dependsOnJdkOnly(TYPES).check(production);
  }

  @Test
  void coreHoldsNoCodec() {
    ArchitectureRules.holdsNoCodec(CORE, TYPES).check(production);
  }

  @Test
  void portsDependOnCoreAndTypesOnly() {
    ArchitectureRules.portsDependOnCoreOnly(PORTS, CORE, TYPES).check(production);
  }

  @Test
  void applicationDependsOnCorePortsAndTypesOnly() {
    ArchitectureRules.applicationDependsOnCoreAndPortsOnly(APPLICATION, PORTS, CORE, TYPES)
        .check(production);
  }

  @Test
  void coreAndPortsReadNoWallClockNorGlobalRandom() {
    ArchitectureRules.noWallClockOrGlobalRandom(CORE, PORTS, APPLICATION).check(production);
  }

  @Test
  void coreIteratesInDefinedOrder() {
    ArchitectureRules.noHashOrderedCollections(CORE, PORTS, APPLICATION).check(production);
  }

  @Test
  void noInfrastructureTypesInCorePortsOrApplication() {
    ArchitectureRules.noInfrastructureTypes(CORE, PORTS, APPLICATION, TYPES).check(production);
  }

  @Test
  void sparkAdapterLeavesProtocolDecisionsToTheUseCases() {
    ArchitectureRules.makesNoProtocolDecisions("io.ytstream.spark", PROTOCOL_DECISIONS)
        .check(production);
  }

  @Test
  void eachDecisionIsInTheCorePackageOfItsKind() {
    DECISIONS_BY_PACKAGE.forEach(
        (pkg, names) ->
            ArchitectureRules.decisionsResideIn(pkg, names.toArray(String[]::new))
                .check(production));
  }

  @Test
  void theApplicationHoldsStepsOverPortsNotPureDecisions() {
    ArchitectureRules.holdsNoPureDecisions(
            APPLICATION,
            List.of(PORTS, TYPES, APPLICATION + ".offsets"),
            APPLICATION_HELPERS_NOT_DECISIONS)
        .check(production);
  }

  @Test
  void sparkAdapterPackagesFormNoCycle() {
    ArchitectureRules.packagesFreeOfCycles("io.ytstream.spark").check(production);
  }

  @Test
  void sparkSinkDoesNotCallIntoTheSource() {
    ArchitectureRules.doesNotDependOn(
            "io.ytstream.spark.sink",
            "io.ytstream.spark.source",
            "a batch's ranges come from the checkpoint, not from the source's objects")
        .check(production);
  }

  @Test
  void theStreamAndTheSinkKnowNothingOfStaticReads() {
    ArchitectureRules.doesNotDependOn(
            "io.ytstream.spark.source",
            "io.ytstream.spark.batch",
            "a static read builds on the stream's task reader, never the other way round")
        .check(production);
    ArchitectureRules.doesNotDependOn(
            "io.ytstream.spark.sink",
            "io.ytstream.spark.batch",
            "writing has nothing to do with reading a range")
        .check(production);
  }

  @Test
  void aStaticReadUsesNoCheckpointNorRealTimeMachinery() {
    ArchitectureRules.doesNotDependOn(
            "io.ytstream.spark.batch",
            "io.ytstream.spark.checkpoint",
            "a static read has no checkpoint: it moves no consumer and keeps no offsets")
        .check(production);
    ArchitectureRules.doesNotDependOn(
            "io.ytstream.spark.batch",
            "io.ytstream.spark.realtime",
            "a static read's tasks end at their range, they are not real-time tasks")
        .check(production);
  }

  @Test
  void adaptersDoNotDependOnEachOther() {
    for (String adapter : ADAPTERS) {
      List<String> others = new ArrayList<>(ADAPTERS);
      others.remove(adapter);
      ArchitectureRules.adapterIsolated(adapter, others.toArray(String[]::new)).check(production);
    }
  }

  @Test
  void emulatorAndHttpClientAreWrittenIndependently() {
    ArchitectureRules.adapterIsolated(EMULATOR, "io.ytstream.ytsaurus", "io.ytstream.spark")
        .check(production);
    ArchitectureRules.adapterIsolated("io.ytstream.ytsaurus", EMULATOR).check(production);
  }
}
