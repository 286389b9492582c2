package io.ytstream.simulation.check;

/**
 * The consumer passed a row that is not in the output: a restart would skip it.
 *
 * <p>Both runtimes ask it whenever the consumer or the output moved, over the {@link Ledger}'s
 * copies; a passed row retention trimmed unread is a {@link PollSkip} instead.
 */
public final class ConsumerAheadOfOutput {

  public static final Property PROPERTY =
      new Property("ConsumerAheadOfOutput", "lost write (consumer committed past unwritten rows)");

  private ConsumerAheadOfOutput() {}

  /**
   * The consumer at {@code consumer} passed row {@code row} (named by {@code where}), which is not
   * in the output; its partition is trimmed below {@code trimmed}.
   */
  public static void passed(
      Violations out, long consumer, long row, long trimmed, boolean reportedLost, String where) {
    if (row < trimmed && !reportedLost) {
      PollSkip.trimmedUnread(out, where);
    } else {
      out.add(PROPERTY, "consumer at " + consumer + " but " + where + " is not in the output");
    }
  }
}
