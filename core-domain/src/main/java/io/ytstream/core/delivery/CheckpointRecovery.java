package io.ytstream.core.delivery;

import java.util.OptionalLong;

/**
 * What a restarted driver does, from the newest {@code offsets/N} and {@code commits/M} entries
 * (Spark's {@code MicroBatchExecution.populateStartOffsets}).
 */
public final class CheckpointRecovery {

  private CheckpointRecovery() {}

  /** The decision. */
  public enum Action {
    /** No batch was ever planned: start fresh from the consumer. */
    START_FRESH,
    /** Batch N committed: plan N+1 from N's end. */
    CONTINUE,
    /** Batch N has offsets but no commit: run it again with exactly the same ranges. */
    RERUN
  }

  /** {@code batch} is the batch to plan next (CONTINUE) or to run again (RERUN). */
  public record Decision(Action action, long batch) {}

  public static Decision decide(OptionalLong latestOffsets, OptionalLong latestCommit) {
    if (latestOffsets.isEmpty()) {
      if (latestCommit.isPresent()) {
        throw new IllegalStateException(
            "checkpoint has commits/"
                + latestCommit.getAsLong()
                + " but no offsets: it is damaged");
      }
      return new Decision(Action.START_FRESH, 0);
    }
    long n = latestOffsets.getAsLong();
    if (latestCommit.isPresent() && latestCommit.getAsLong() == n) {
      return new Decision(Action.CONTINUE, n + 1);
    }
    if ((latestCommit.isEmpty() && n == 0)
        || (latestCommit.isPresent() && latestCommit.getAsLong() == n - 1)) {
      return new Decision(Action.RERUN, n);
    }
    throw new IllegalStateException(
        "checkpoint has offsets/"
            + n
            + " but the newest commit is "
            + (latestCommit.isPresent() ? "commits/" + latestCommit.getAsLong() : "missing")
            + ": batches are missing, the checkpoint is damaged");
  }
}
