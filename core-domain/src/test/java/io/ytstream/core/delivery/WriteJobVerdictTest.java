package io.ytstream.core.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.delivery.TaskAttemptEnd.Outcome;
import java.util.List;
import org.junit.jupiter.api.Test;

class WriteJobVerdictTest {

  private static TaskAttemptEnd end(int partition, Outcome outcome) {
    return new TaskAttemptEnd(partition, outcome, partition + ":" + outcome);
  }

  @Test
  void successesDenialsAndFailuresBeforeInsertingLeaveTheBatchCommittable() {
    WriteJobVerdict v =
        WriteJobVerdict.of(
            List.of(
                end(0, Outcome.FAILED_BEFORE_INSERT),
                end(0, Outcome.SUCCEEDED),
                end(1, Outcome.COMMIT_DENIED),
                end(1, Outcome.SUCCEEDED)));
    assertTrue(v.committable());
    assertEquals(List.of(), v.taints());
  }

  @Test
  void anEndThatMayHaveLeftRowsBeforeItsPartitionSucceededTaints() {
    for (Outcome o :
        List.of(
            Outcome.FAILED_AFTER_INSERT,
            Outcome.EXECUTOR_LOST,
            Outcome.KILLED,
            Outcome.RESULT_LOST,
            Outcome.OTHER)) {
      WriteJobVerdict v = WriteJobVerdict.of(List.of(end(2, o), end(2, Outcome.SUCCEEDED)));
      assertFalse(v.committable(), o.name());
      assertEquals(List.of("2:" + o), v.taints());
    }
  }

  @Test
  void aLaterCopyOfASucceededPartitionWasNeverAuthorized() {
    WriteJobVerdict v =
        WriteJobVerdict.of(
            List.of(
                end(0, Outcome.SUCCEEDED),
                end(0, Outcome.KILLED),
                end(0, Outcome.EXECUTOR_LOST),
                end(1, Outcome.EXECUTOR_LOST)));
    assertEquals(List.of("1:EXECUTOR_LOST"), v.taints(), "only the other partition's loss counts");
  }
}
