package io.ytstream.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The use cases an engine drives ({@code @DrivingUseCase}) are the ones the Spark adapter calls,
 * and the simulation calls each of them, so the sequence it checks is the one that ships. A driving
 * use case the simulation does not reach yet is listed below with the reason, and the list is held
 * to the code both ways.
 */
class DrivingUseCasesTest {

  private static final String APPLICATION = "io.ytstream.application";
  private static final String DRIVING = APPLICATION + ".DrivingUseCase";
  private static final String SPARK = "io.ytstream.spark";
  private static final String SIMULATION = "io.ytstream.simulation";

  /** Driving use cases the simulation does not make calls of yet, and why. */
  private static final Map<String, String> NOT_YET_SIMULATED = new TreeMap<>(Map.of());

  private static JavaClasses production;

  @BeforeAll
  static void importClasses() {
    production =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.ytstream");
  }

  @Test
  void everyUseCaseTheSparkAdapterDrivesIsMarkedDriving() {
    Set<String> unmarked = new TreeSet<>();
    for (JavaClass c : production) {
      if (isUseCaseClass(c) && calledFrom(c, SPARK) && !c.isAnnotatedWith(DRIVING)) {
        unmarked.add(c.getName());
      }
    }
    assertEquals(
        Set.of(),
        unmarked,
        "application classes the Spark adapter calls are driving use cases: mark them"
            + " @DrivingUseCase so the simulation is held to calling them");
  }

  @Test
  void theSimulationCallsEveryDrivingUseCase() {
    Set<String> driving = new TreeSet<>();
    Set<String> reached = new TreeSet<>();
    for (JavaClass c : production) {
      if (c.isAnnotatedWith(DRIVING)) {
        driving.add(c.getName());
        if (calledFrom(c, SIMULATION)) {
          reached.add(c.getName());
        }
      }
    }
    Set<String> expectedReached = new TreeSet<>(driving);
    expectedReached.removeAll(NOT_YET_SIMULATED.keySet());
    assertEquals(
        expectedReached,
        reached,
        "the simulation reaches every driving use case but those not yet simulated "
            + NOT_YET_SIMULATED);
    assertEquals(
        Set.of(),
        new TreeSet<>(
            NOT_YET_SIMULATED.keySet().stream().filter(n -> !driving.contains(n)).toList()),
        "NOT_YET_SIMULATED names only driving use cases");
  }

  @Test
  void theSimulationReachesMostOfTheDrivingUseCases() {
    List<String> driving =
        production.stream()
            .filter(c -> c.isAnnotatedWith(DRIVING))
            .map(JavaClass::getName)
            .toList();
    assertEquals(
        true,
        driving.size() >= 2 * NOT_YET_SIMULATED.size(),
        "driving use cases " + driving + ", not yet simulated " + NOT_YET_SIMULATED.keySet());
  }

  /** A class of the application with state and steps (not a value, an error or a constant). */
  private static boolean isUseCaseClass(JavaClass c) {
    return c.getPackageName().startsWith(APPLICATION)
        && c.isTopLevelClass()
        && !c.isInterface()
        && !c.isEnum()
        && !c.isRecord()
        && !c.isAnnotation()
        && !c.isAssignableTo(Throwable.class);
  }

  /**
   * Whether a class in {@code callerPackage} calls a constructor or instance method of {@code c}.
   */
  private static boolean calledFrom(JavaClass c, String callerPackage) {
    for (JavaAccess<?> access : c.getAccessesToSelf()) {
      if (!access.getOrigin().getOwner().getPackageName().startsWith(callerPackage)) {
        continue;
      }
      Optional<? extends JavaCodeUnit> target =
          access.getTarget()
                  instanceof com.tngtech.archunit.core.domain.AccessTarget.CodeUnitAccessTarget t
              ? t.resolveMember()
              : Optional.empty();
      if (target.isPresent() && !target.get().getModifiers().contains(JavaModifier.STATIC)) {
        return true;
      }
    }
    return false;
  }
}
