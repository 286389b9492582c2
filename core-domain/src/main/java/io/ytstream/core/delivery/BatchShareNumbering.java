package io.ytstream.core.delivery;

/**
 * How the rows of one task's share of micro-batch N are numbered in the task's queue producer
 * session, so that the server skips a replayed batch: batch N owns the sequence numbers {@code [N *
 * 2^32, (N + 1) * 2^32)}, and the share's rows take {@code N * 2^32, N * 2^32 + 1, ...} in the
 * order the task produces them. The share is pushed in chunks, every chunk inside one tablet
 * transaction of the share's own, so the share lands all or none.
 *
 * <p>Why this works: the server skips rows numbered at or below what the session holds and allows
 * gaps ({@code yt/yt/ytlib/queue_client/helpers.cpp}, {@code ValidatePushQueueProducerRows}), and
 * the push's {@code sequence_number} parameter numbers its rows from a start, so one number per
 * chunk is enough. Numbers of later batches are above every number of earlier ones, however many
 * rows each had. Within the share's transaction the server validates each chunk against the last
 * number the transaction's previous push left ({@code TTransaction::DoPushQueueProducer}), so
 * chunks numbered on from each other are written, and a repeated copy of the last chunk (a lost
 * answer) is skipped. The transaction is all or nothing, so the session holds either nothing of
 * batch N or the last number of a complete earlier attempt, from which the earlier row count
 * follows. A replay therefore knows when it starts whether its rows are pushed ({@link
 * #holdsNothingOf}); a share the session already holds is not pushed again, chunk by chunk, at all:
 * the server's number after a skipped push is the push's last, which would let the next chunk of
 * the replay through. Its rows are counted, and the count decides at the end ({@link #decide}).
 *
 * <p>Bounds: a share holds at most {@code 2^32} rows (the per-tablet row limit of one transaction
 * is far lower) and batch ids run to {@code 2^31 - 2}.
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
   * Whether the rows of a share of batch {@code batchId} are to be pushed when its session holds
   * {@code sessionSequenceNumber}: true when the session holds nothing of this batch or a later
   * one.
   */
  public static boolean holdsNothingOf(long batchId, long sessionSequenceNumber) {
    if (sessionSequenceNumber < -1) {
      throw new IllegalArgumentException(
          "a session's sequence number is -1 or more, got " + sessionSequenceNumber);
    }
    return sessionSequenceNumber < base(batchId);
  }

  /**
   * What was to be done with a share of {@code rowCount} rows of batch {@code batchId} when its
   * session holds {@code sessionSequenceNumber} (-1 for a session that has never been pushed to)
   * when the share starts, once its row count is known at the end.
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
