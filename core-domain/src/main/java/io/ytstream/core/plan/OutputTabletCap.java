package io.ytstream.core.plan;

/**
 * Keeps one batch transaction under YTsaurus' per-tablet row limit ({@code
 * max_rows_per_transaction}, 100,000 by default) for non-shuffle writes.
 *
 * <p>Routing assumed: the i-th planned partition (in partition order, counting every partition of
 * the batch, empty ones included) writes its rows to output tablet {@code i % outputTabletCount},
 * and each input row yields at most {@code rowsPerInputRow} output rows. The planner shrinks ranges
 * so that no output tablet receives more than {@code maxRowsPerTablet} rows in one batch.
 *
 * <p>In transactional mode the batch also writes one consumer row per partition into the consumer
 * table; give {@code maxRowsPerTablet} that much headroom when a consumer serves many partitions.
 */
public record OutputTabletCap(long maxRowsPerTablet, int outputTabletCount, int rowsPerInputRow) {

  public static final long DEFAULT_MAX_ROWS_PER_TABLET = 100_000;

  public OutputTabletCap {
    if (maxRowsPerTablet < 1) {
      throw new IllegalArgumentException("maxRowsPerTablet must be >= 1, got " + maxRowsPerTablet);
    }
    if (outputTabletCount < 1) {
      throw new IllegalArgumentException(
          "outputTabletCount must be >= 1, got " + outputTabletCount);
    }
    if (rowsPerInputRow < 1) {
      throw new IllegalArgumentException("rowsPerInputRow must be >= 1, got " + rowsPerInputRow);
    }
    if (rowsPerInputRow > maxRowsPerTablet) {
      // Even one input row would exceed the limit: the cap and progress cannot both hold.
      throw new IllegalArgumentException(
          "one input row yields "
              + rowsPerInputRow
              + " output rows, more than the per-tablet limit "
              + maxRowsPerTablet
              + ": no batch can stay under it; raise max_rows_per_transaction or reshard the output");
    }
  }

  public static OutputTabletCap defaultFor(int outputTabletCount) {
    return new OutputTabletCap(DEFAULT_MAX_ROWS_PER_TABLET, outputTabletCount, 1);
  }

  /** The most input rows that may go to one output tablet in one batch. */
  long maxInputRowsPerTablet() {
    return maxRowsPerTablet / rowsPerInputRow;
  }

  int outputTabletOf(int partitionOrdinal) {
    return partitionOrdinal % outputTabletCount;
  }
}
