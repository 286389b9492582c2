package io.ytstream.simulation.check;

import java.util.function.IntFunction;

/**
 * Transactional: rows of a batch are visible while its consumer advance is not.
 *
 * <p>Over the {@link Ledger}: a copy in the output of a row at or past the consumer.
 */
public final class AbortedRead {

  public static final Property PROPERTY = new Property("AbortedRead", "aborted read");

  private AbortedRead() {}

  /**
   * The first copy visible in the output of a row from {@code behind[o]} (the rows the consumer
   * covers) on, in (partition, row, copy) order, the consumer at {@code consumer}.
   */
  public static void visibleAhead(
      Violations out, Ledger ledger, long[] behind, long[] consumer, IntFunction<String> name) {
    for (int o = 0; o < consumer.length; o++) {
      for (long r = behind[o]; r < ledger.produced(o); r++) {
        for (int i = 0; i < Ledger.MAX_COPIES; i++) {
          if (ledger.copies(o, r, i) > 0) {
            out.add(
                PROPERTY,
                "row "
                    + r
                    + " of "
                    + name.apply(o)
                    + " is visible but the consumer is at "
                    + consumer[o]);
            return;
          }
        }
      }
    }
  }
}
