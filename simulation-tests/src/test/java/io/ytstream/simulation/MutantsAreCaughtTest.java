package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each deliberately broken protocol variant is caught within 1,000 seeds by the invariant that
 * names what it breaks ({@link Mutant#caughtBy}), in every mode it is caught in ({@link
 * Mutant#caughtIn}), and the same seed and schedule without the mutant are clean.
 */
class MutantsAreCaughtTest {

  static List<Arguments> mutantsAndModes() {
    List<Arguments> cases = new ArrayList<>();
    for (Mutant mutant : Mutant.values()) {
      if (mutant != Mutant.NONE) {
        for (SimMode mode : mutant.caughtIn()) {
          cases.add(Arguments.of(mutant, mode));
        }
      }
    }
    return cases;
  }

  @ParameterizedTest(name = "{0} in {1}")
  @MethodSource("mutantsAndModes")
  void mutantIsCaughtByItsInvariantWithinAThousandSeeds(Mutant mutant, SimMode mode) {
    SimulationRun.Options options = new SimulationRun.Options(mode, 0, mutant, 30, false);
    RunResult caught = null;
    for (long seed = 1; seed <= 1000 && caught == null; seed++) {
      RunResult r = SimulationRun.run(seed, options);
      if (r.violations().stream().anyMatch(v -> v.property().name().equals(mutant.caughtBy()))) {
        caught = r;
      }
    }
    assertNotNull(
        caught,
        mutant + " was not caught by " + mutant.caughtBy() + " in 1,000 " + mode + " seeds");
    // The same seed without the mutant is clean: the violation is the mutant's doing.
    RunResult correct =
        SimulationRun.run(
            caught.seed(),
            new SimulationRun.Options(mode, 0, Mutant.NONE, 30, false),
            caught.schedule());
    assertEquals(
        false,
        correct.failed(),
        "correct protocol on seed " + caught.seed() + correct.violations());
  }
}
