package io.ytstream.simulation;

/**
 * The queries a workload runs. Map, filter and flatMap are stateless; {@link #AGGREGATE} counts
 * rows per key with a shuffle between a map stage and a reduce stage (transactional mode only).
 */
public enum QueryKind {
  MAP(1),
  FILTER(1),
  /** One input row to one, two or three output rows. */
  FLAT_MAP(3),
  AGGREGATE(1);

  private final int maxRowsPerInputRow;

  QueryKind(int maxRowsPerInputRow) {
    this.maxRowsPerInputRow = maxRowsPerInputRow;
  }

  public int maxRowsPerInputRow() {
    return maxRowsPerInputRow;
  }

  /** How many output rows input value {@code v} yields (stateless queries). */
  public int fanOut(long v) {
    return switch (this) {
      case MAP -> 1;
      case FILTER -> v % 3 == 0 ? 0 : 1;
      case FLAT_MAP -> (int) (v % 3) + 1;
      case AGGREGATE -> throw new IllegalStateException("aggregate has no per-row fan-out");
    };
  }

  /** The value of output copy {@code copy} of input value {@code v}. */
  public long outputValue(long v, int copy) {
    return switch (this) {
      case MAP -> v * 2 + 1;
      case FILTER -> v;
      case FLAT_MAP -> v * 10 + copy;
      case AGGREGATE -> throw new IllegalStateException("aggregate has no per-row output");
    };
  }
}
