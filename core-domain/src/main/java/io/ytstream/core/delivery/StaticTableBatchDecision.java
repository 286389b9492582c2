package io.ytstream.core.delivery;

import java.util.OptionalLong;

/**
 * Whether a batch is written into a static table, given the last batch the table records for the
 * query ({@code @ytstream_batches}, set in the same master transaction as the batch's rows). The
 * record and the rows land together or not at all, so the record alone says whether a batch's rows
 * are in the table: a batch at or before the recorded one is there already and is not written
 * again.
 */
public enum StaticTableBatchDecision {
  /** The table holds nothing of this batch: write its rows and record it. */
  WRITE,
  /** The table records this batch (an earlier attempt committed it): write nothing. */
  ALREADY_WRITTEN,
  /**
   * The table records a later batch: the checkpoint that runs this batch is behind the table (an
   * old copy of the checkpoint, or a second driver lagging behind). Its rows are there: write
   * nothing, and never set the record back.
   */
  LATER_BATCH_WRITTEN;

  /** The decision for batch {@code batchId} when the table records {@code recorded}. */
  public static StaticTableBatchDecision of(OptionalLong recorded, long batchId) {
    if (batchId < 0) {
      throw new IllegalArgumentException("a batch id is not negative: " + batchId);
    }
    if (recorded.isEmpty() || recorded.getAsLong() < batchId) {
      return WRITE;
    }
    return recorded.getAsLong() == batchId ? ALREADY_WRITTEN : LATER_BATCH_WRITTEN;
  }

  /** Whether the batch's rows are to be written. */
  public boolean writes() {
    return this == WRITE;
  }
}
