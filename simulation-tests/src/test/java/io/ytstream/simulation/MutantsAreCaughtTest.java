package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each deliberately broken protocol variant is caught within 1,000 seeds by the invariant that
 * names what it breaks ({@link Mutant#caughtBy}), and the same seed and schedule without the mutant
 * are clean.
 */
class MutantsAreCaughtTest {

  // OMIT_OLD_OFFSET is left out: no fault schedule found so far lets two drivers' consumer
  // advances race between one's read and its advance with different targets (see Mutant).
  @ParameterizedTest
  @EnumSource(
      value = Mutant.class,
      mode = EnumSource.Mode.EXCLUDE,
      names = {"NONE", "OMIT_OLD_OFFSET"})
  void mutantIsCaughtByItsInvariantWithinAThousandSeeds(Mutant mutant) {
    SimulationRun.Options options =
        new SimulationRun.Options(mutant.targetMode(), 0, mutant, 30, false);
    RunResult caught = null;
    for (long seed = 1; seed <= 1000 && caught == null; seed++) {
      RunResult r = SimulationRun.run(seed, options);
      if (r.violations().stream().anyMatch(v -> v.invariant() == mutant.caughtBy())) {
        caught = r;
      }
    }
    assertNotNull(caught, mutant + " was not caught by " + mutant.caughtBy() + " in 1,000 seeds");
    // The same seed without the mutant is clean: the violation is the mutant's doing.
    RunResult correct =
        SimulationRun.run(
            caught.seed(),
            new SimulationRun.Options(mutant.targetMode(), 0, Mutant.NONE, 30, false),
            caught.schedule());
    assertEquals(
        false,
        correct.failed(),
        "correct protocol on seed " + caught.seed() + correct.violations());
  }
}
