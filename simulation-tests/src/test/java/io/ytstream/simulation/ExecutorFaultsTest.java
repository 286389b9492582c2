package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The executor faults, each on a seed where it fires: what the shipped use cases must make of a
 * lost executor after a transactional task's first insert, a producer task killed mid-push, and a
 * task's result lost on its way to the driver.
 */
class ExecutorFaultsTest {

  private static RunResult run(String mode, int batches, long seed, String schedule) {
    SimulationRun.Options options =
        new SimulationRun.Options(SimMode.parse(mode), 0, Mutant.NONE, batches, true);
    return SimulationRun.run(seed, options, FaultSchedule.parse(schedule));
  }

  @Test
  void anExecutorLostAfterItsFirstInsertKeepsItsBatchFromCommittingAndTheRetryWritesOnce() {
    // The seed a taint rule that ignores lost executors commits with rows twice (MUTATION.md).
    RunResult r = run("transactional", 3, 3, "EXECUTOR_LOST@2:3");
    assertEquals(1, r.fired(SimFault.EXECUTOR_LOST));
    assertEquals(List.of(), r.violations());
    assertTrue(r.trace().contains("executor of attempt"), "the executor was lost");
    assertTrue(r.trace().contains("tainted: batch"), "the sink refused the batch");
    assertEquals(0, r.duplicated());
    assertTrue(r.queryFailures() > 0, "the query failed and ran the batch again");
  }

  @Test
  void aStaticTableTaskLostAfterItsNestedCommitKeepsTheBatchFromCommittingAndTheRetryWritesOnce() {
    RunResult r = run("static-table", 3, 3, "EXECUTOR_LOST@2:3");
    assertEquals(1, r.fired(SimFault.EXECUTOR_LOST));
    assertEquals(List.of(), r.violations());
    assertTrue(r.trace().contains("executor of attempt"), "the executor was lost");
    assertTrue(r.trace().contains("tainted: batch"), "the sink refused the batch");
    assertEquals(0, r.duplicated());
    assertTrue(r.queryFailures() > 0, "the query failed and ran the batch again");
  }

  @Test
  void aResultLostAfterAnInsertIsAsALostExecutorForTheTransactionalBatch() {
    RunResult r = run("transactional", 3, 3, "RESULT_LOST@0:0");
    assertEquals(1, r.fired(SimFault.RESULT_LOST));
    assertEquals(List.of(), r.violations());
    assertTrue(r.trace().contains("tainted: batch"), "the sink refused the batch");
  }

  @Test
  void aResultLostInTheOtherModesRunsTheTaskAgainWithoutLosingARow() {
    // Static table mode's lost result taints its batch as a lost executor does (above).
    for (String mode : List.of("at-least-once", "idempotent", "producer")) {
      RunResult r = run(mode, 3, 3, "RESULT_LOST@0:0");
      assertEquals(1, r.fired(SimFault.RESULT_LOST), mode);
      assertEquals(List.of(), r.violations(), mode);
      assertEquals(0, r.lost(), mode);
    }
  }

  @Test
  void aProducerTaskKilledMidPushNeitherLosesNorRepeatsARow() {
    for (String schedule : List.of("TASK_KILLED@0:0", "TASK_KILLED@0:1", "TASK_KILLED@1:2")) {
      RunResult r = run("producer", 5, 1, schedule);
      assertEquals(1, r.fired(SimFault.TASK_KILLED), schedule);
      assertEquals(List.of(), r.violations(), schedule);
      assertTrue(r.trace().contains("killed mid-push"), schedule);
      assertEquals(0, r.duplicated(), schedule);
      assertEquals(0, r.lost(), schedule);
    }
  }
}
