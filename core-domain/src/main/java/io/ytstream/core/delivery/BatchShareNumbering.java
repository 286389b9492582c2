package io.ytstream.core.delivery;

/**
 * How the rows of one task's share of micro-batch N are numbered in the task's queue producer
 * session, so that the server skips a replayed batch: batch N owns the sequence numbers {@code [N *
 * 2^32, (N + 1) * 2^32)}, and the share's rows, pushed in one push (one tablet transaction: all or
 * none), take {@code N * 2^32, N * 2^32 + 1, ...} in the order the task pushes them.
 *
 * <p>Why this works: the server skips rows numbered at or below what the session holds and allows
 * gaps ({@code yt/yt/ytlib/queue_client/helpers.cpp}, {@code ValidatePushQueueProducerRows}), and
 * the push's {@code sequence_number} parameter numbers its rows from a start, so one number per
 * push is enough. Numbers of later batches are above every number of earlier ones, however many
 * rows each had. A push is all or nothing, so the session holds either nothing of batch N or the
 * last number of a complete earlier attempt, from which the earlier row count follows: a replay
 * with another row count is detected before anything is pushed.
 *
 * <p>Bounds: a share holds at most {@code 2^32} rows (the per-tablet row limit of one push is far
 * lower) and batch ids run to {@code 2^31 - 2}.
 */
public final class BatchShareNumbering {

  /** Sequence numbers reserved for one batch in one session. */
  public static final long NUMBERS_PER_BATCH = 1L << 32;

  /** The highest batch id whose numbers fit into a sequence number (an int64). */
  public static final long MAX_BATCH_ID = Long.MAX_VALUE / NUMBERS_PER_BATCH - 1;

  private BatchShareNumbering() {}

  /** The sequence number of the first row of batch {@code batchId}. */
  public static long base(long batchId) {
    checkBatchId(batchId);
    return batchId * NUMBERS_PER_BATCH;
  }

  /**
   * What to do with a share of {@code rowCount} rows of batch {@code batchId} when its session
   * holds {@code sessionSequenceNumber} (-1 for a session that has never been pushed to).
   */
  public static BatchShareDecision decide(long batchId, long rowCount, long sessionSequenceNumber) {
    long base = base(batchId);
    if (rowCount < 0 || rowCount > NUMBERS_PER_BATCH) {
      throw new IllegalArgumentException(
          "a share of batch "
              + batchId
              + " must have 0 to "
              + NUMBERS_PER_BATCH
              + " rows, got "
              + rowCount);
    }
    if (sessionSequenceNumber < -1) {
      throw new IllegalArgumentException(
          "a session's sequence number is -1 or more, got " + sessionSequenceNumber);
    }
    long lastOfBatch = base + NUMBERS_PER_BATCH - 1;
    if (sessionSequenceNumber < base) {
      return new BatchShareDecision(
          rowCount == 0
              ? BatchShareDecision.Action.NOTHING_TO_PUSH
              : BatchShareDecision.Action.PUSH,
          batchId,
          base,
          rowCount,
          0);
    }
    if (sessionSequenceNumber > lastOfBatch) {
      return new BatchShareDecision(
          BatchShareDecision.Action.LATER_BATCH_PUSHED, batchId, base, rowCount, 0);
    }
    long earlier = sessionSequenceNumber - base + 1;
    return new BatchShareDecision(
        earlier == rowCount
            ? BatchShareDecision.Action.ALREADY_PUSHED
            : BatchShareDecision.Action.OUTPUT_CHANGED,
        batchId,
        base,
        rowCount,
        earlier);
  }

  private static void checkBatchId(long batchId) {
    if (batchId < 0 || batchId > MAX_BATCH_ID) {
      throw new IllegalArgumentException(
          "batch id "
              + batchId
              + " is outside 0.."
              + MAX_BATCH_ID
              + ": its rows' sequence numbers would not fit into an int64");
    }
  }
}
