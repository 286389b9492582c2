package io.ytstream.simulation.check;

/**
 * An output row names no source row, or carries another value than its source row's.
 *
 * <p>Both runtimes hand it every added output row's claimed source, checked against the {@link
 * Ledger}'s produced values.
 */
public final class GarbageWrite {

  public static final Property PROPERTY = new Property("GarbageWrite", "garbage write");

  private GarbageWrite() {}

  /**
   * Whether an output row claiming row {@code row} of partition {@code ordinal} (copy {@code copy}
   * of {@code copies} made from the source value) with {@code value} matches a produced row; {@code
   * expected} gives the value copy {@code copy} of a source value must carry.
   */
  public static boolean matches(
      Ledger ledger,
      int ordinal,
      long row,
      long copy,
      java.util.function.LongUnaryOperator copies,
      ExpectedValue expected,
      long value) {
    if (ordinal < 0
        || ordinal >= ledger.partitions()
        || row < 0
        || row >= ledger.produced(ordinal)) {
      return false;
    }
    long source = ledger.value(ordinal, row);
    return copy < copies.applyAsLong(source) && expected.of(source, (int) copy) == value;
  }

  /** The value copy {@code copy} of a source row's value carries in the output. */
  @FunctionalInterface
  public interface ExpectedValue {
    long of(long source, int copy);
  }

  /** {@code row}, added to the output, matches no produced row. */
  public static void unmatched(Violations out, Object row) {
    out.add(PROPERTY, "output row " + row + " matches no input row");
  }
}
