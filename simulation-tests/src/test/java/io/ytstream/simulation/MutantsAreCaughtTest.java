package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each deliberately broken protocol variant is caught within 1,000 seeds. */
class MutantsAreCaughtTest {

  @ParameterizedTest
  @EnumSource(value = Mutant.class, mode = EnumSource.Mode.EXCLUDE, names = "NONE")
  void mutantIsCaughtWithinAThousandSeeds(Mutant mutant) {
    SimulationRun.Options options =
        new SimulationRun.Options(mutant.targetMode(), 0, mutant, 30, false);
    RunResult caught = null;
    for (long seed = 1; seed <= 1000 && caught == null; seed++) {
      RunResult r = SimulationRun.run(seed, options);
      if (r.failed()) {
        caught = r;
      }
    }
    assertNotNull(caught, mutant + " was not caught in 1,000 seeds");
    // The same seed without the mutant is clean: the violation is the mutant's doing.
    RunResult correct =
        SimulationRun.run(
            caught.seed(),
            new SimulationRun.Options(mutant.targetMode(), 0, Mutant.NONE, 30, false),
            caught.schedule());
    assertEquals(false, correct.failed(), "correct protocol on seed " + caught.seed());
    Set<Verifier.Invariant> expected =
        switch (mutant) {
          case IGNORE_MAX_ROWS_CAP -> EnumSet.of(Verifier.Invariant.BATCH_BOUND);
          case IGNORE_TRIMMED_ROWS -> EnumSet.of(Verifier.Invariant.SILENT_DATA_LOSS);
          case REAPPLY_ALREADY_APPLIED ->
              EnumSet.of(Verifier.Invariant.DUPLICATE, Verifier.Invariant.PARTIAL_BATCH_VISIBLE);
          default -> EnumSet.allOf(Verifier.Invariant.class);
        };
    assertTrue(
        caught.violations().stream().anyMatch(v -> expected.contains(v.invariant())),
        mutant + " caught by " + caught.violations());
  }
}
