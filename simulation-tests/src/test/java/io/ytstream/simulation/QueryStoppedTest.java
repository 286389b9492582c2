package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The user stopping the query while the driver waits on a cluster call ({@code QUERY_STOPPED}). */
class QueryStoppedTest {

  /**
   * A consumer advance whose commit request was lost, then stopped during the read that resolves
   * it: the advance threw the lost commit with the interruption suppressed, so Spark would have
   * ended the stopped query failed.
   */
  @Test
  void aStopDuringTheReadThatResolvesALostAdvanceEndsAsAStop() {
    RunResult r =
        run(
            "at-least-once",
            30,
            1926,
            "TRANSACTION_EXPIRY@226:10,COMMIT_LOST@52:13,QUERY_STOPPED@266:3");
    assertEquals(List.of(), r.violations());
    assertTrue(
        r.trace().contains("stopped by the user during PLAN"), "the stop falls inside a plan");
  }

  private static RunResult run(String mode, int batches, long seed, String schedule) {
    SimulationRun.Options options =
        new SimulationRun.Options(SimMode.parse(mode), 0, Mutant.NONE, batches, true);
    return SimulationRun.run(seed, options, FaultSchedule.parse(schedule));
  }
}
