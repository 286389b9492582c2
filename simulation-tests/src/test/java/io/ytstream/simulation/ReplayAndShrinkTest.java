package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ReplayAndShrinkTest {

  private static RunResult firstFailure(Mutant mutant) {
    SimulationRun.Options options =
        new SimulationRun.Options(mutant.targetMode(), 0, mutant, 30, false);
    for (long seed = 1; seed <= 1000; seed++) {
      RunResult r = SimulationRun.run(seed, options);
      if (r.failed()) {
        return r;
      }
    }
    throw new AssertionError("no failing seed for " + mutant);
  }

  @Test
  void aFailingSeedReplaysByteForByte() {
    RunResult failing = firstFailure(Mutant.COMMIT_LOG_BEFORE_SINK);
    SimulationRun.Options traced =
        new SimulationRun.Options(
            SimMode.AT_LEAST_ONCE, 0, Mutant.COMMIT_LOG_BEFORE_SINK, 30, true);
    RunResult first = SimulationRun.run(failing.seed(), traced);
    RunResult second = SimulationRun.run(failing.seed(), traced);
    assertTrue(first.failed());
    assertTrue(first.trace().length() > 1000, "a trace of every step");
    assertEquals(first.trace(), second.trace());
    assertEquals(failing.violations(), first.violations());
  }

  @Test
  void theCommandLineReplayPrintsTheSameBytesTwice() {
    RunResult failing = firstFailure(Mutant.COMMIT_LOG_BEFORE_SINK);
    String[] args = {
      "--mode",
      "at-least-once",
      "--mutant",
      "commit-log-before-sink",
      "--replay",
      Long.toString(failing.seed())
    };
    String a = capture(args);
    String b = capture(args);
    assertTrue(a.contains("result: FAILED"), a.substring(Math.max(0, a.length() - 300)));
    assertEquals(a, b);
  }

  @Test
  void shrinkingKeepsTheFailureAndDropsFaults() {
    RunResult failing = firstFailure(Mutant.COMMIT_LOG_BEFORE_SINK);
    SimulationRun.Options options =
        new SimulationRun.Options(
            SimMode.AT_LEAST_ONCE, 0, Mutant.COMMIT_LOG_BEFORE_SINK, 30, false);
    Shrinker.Shrunk shrunk = Shrinker.shrink(failing.seed(), options, failing.schedule());
    assertTrue(shrunk.schedule().size() <= failing.schedule().size());
    assertTrue(shrunk.batches() <= 30);
    RunResult replayed =
        SimulationRun.run(failing.seed(), options.withBatches(shrunk.batches()), shrunk.schedule());
    assertTrue(replayed.failed(), "the shrunk schedule still fails");
    // The schedule's text form replays the same schedule.
    assertEquals(shrunk.schedule(), FaultSchedule.parse(shrunk.schedule().toString()));
  }

  @Test
  void theCorrectProtocolExitsZeroAndAMissedMutantWouldExitOne() {
    assertEquals(0, Simulate.run(new String[] {"--mode", "idempotent", "--seeds", "30"}, sink()));
    assertEquals(
        0,
        Simulate.run(
            new String[] {"--mode", "at-least-once", "--mutant", "commit-log-before-sink"},
            sink()));
    // One seed is too few for this mutant (it needs a crash between the two commits): reported as
    // not caught.
    assertEquals(
        1,
        Simulate.run(
            new String[] {
              "--mode", "at-least-once", "--mutant", "commit-log-before-sink", "--seeds", "1"
            },
            sink()));
  }

  private static PrintStream sink() {
    return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
  }

  private static String capture(String[] args) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Simulate.run(args, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
