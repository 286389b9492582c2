package io.ytstream.core.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ytstream.core.delivery.CheckpointRecovery.Action;
import io.ytstream.core.delivery.CheckpointRecovery.Decision;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class CheckpointRecoveryTest {

  private static OptionalLong opt(long v) {
    return v < 0 ? OptionalLong.empty() : OptionalLong.of(v);
  }

  @Test
  void exhaustiveSmallBatchNumbers() {
    for (long offsets = -1; offsets <= 7; offsets++) {
      for (long commit = -1; commit <= 7; commit++) {
        OptionalLong o = opt(offsets);
        OptionalLong c = opt(commit);
        String ctx = "offsets=" + o + " commit=" + c;
        if (offsets < 0 && commit >= 0) {
          assertEquals(
              "checkpoint has commits/" + commit + " but no offsets: it is damaged",
              assertThrows(IllegalStateException.class, () -> CheckpointRecovery.decide(o, c), ctx)
                  .getMessage());
        } else if (offsets < 0) {
          assertEquals(new Decision(Action.START_FRESH, 0), CheckpointRecovery.decide(o, c), ctx);
        } else if (commit == offsets) {
          assertEquals(
              new Decision(Action.CONTINUE, offsets + 1), CheckpointRecovery.decide(o, c), ctx);
        } else if (commit == offsets - 1) {
          // Includes offsets/0 with no commit at all (commit = -1).
          assertEquals(new Decision(Action.RERUN, offsets), CheckpointRecovery.decide(o, c), ctx);
        } else {
          assertEquals(
              "checkpoint has offsets/"
                  + offsets
                  + " but the newest commit is "
                  + (commit < 0 ? "missing" : "commits/" + commit)
                  + ": batches are missing, the checkpoint is damaged",
              assertThrows(IllegalStateException.class, () -> CheckpointRecovery.decide(o, c), ctx)
                  .getMessage());
        }
      }
    }
  }

  @Test
  void largeBatchNumbers() {
    long n = Long.MAX_VALUE - 1;
    assertEquals(
        new Decision(Action.CONTINUE, Long.MAX_VALUE),
        CheckpointRecovery.decide(OptionalLong.of(n), OptionalLong.of(n)));
    assertEquals(
        new Decision(Action.RERUN, n),
        CheckpointRecovery.decide(OptionalLong.of(n), OptionalLong.of(n - 1)));
  }
}
