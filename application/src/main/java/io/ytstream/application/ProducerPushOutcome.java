package io.ytstream.application;

/**
 * What one task's push through its producer session did, read from the server's {@code
 * skipped_row_count}: every row new, every row already there (a replayed batch, or an earlier
 * attempt whose answer was lost), or some of each.
 *
 * @param lastSequenceNumber the sequence number of the push's last row (-1 for no rows)
 * @param rowCount the rows the task pushed
 * @param skippedRowCount the rows the session already held, so the server did not write them
 */
public record ProducerPushOutcome(long lastSequenceNumber, long rowCount, long skippedRowCount) {

  /** How the push's rows relate to what the session held before it. */
  public enum Kind {
    /** No row was there: this push wrote them all (none, for a push of no rows). */
    WRITTEN,
    /** Every row was there: nothing written now (a replay, or a lost answer's attempt landed). */
    ALREADY_WRITTEN,
    /**
     * Some rows were there and some not: the session's numbers reach into this push. With the same
     * rows for a replayed batch and numbers that never overlap another batch's, this cannot happen;
     * it means the task's output changed between attempts or the numbering overlaps, so
     * exactly-once no longer holds for this batch.
     */
    OVERLAPPED
  }

  public ProducerPushOutcome {
    if (rowCount < 0 || skippedRowCount < 0 || skippedRowCount > rowCount) {
      throw new IllegalArgumentException(
          "skipped " + skippedRowCount + " of " + rowCount + " rows is not a push outcome");
    }
  }

  public Kind kind() {
    if (skippedRowCount == 0) {
      return Kind.WRITTEN;
    }
    return skippedRowCount == rowCount ? Kind.ALREADY_WRITTEN : Kind.OVERLAPPED;
  }

  /** The rows this push wrote into the queue. */
  public long writtenRowCount() {
    return rowCount - skippedRowCount;
  }
}
