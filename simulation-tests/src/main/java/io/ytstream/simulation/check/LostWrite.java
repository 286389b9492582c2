package io.ytstream.simulation.check;

/**
 * A source row the query consumed (below a committed end or the final consumer, or a batch
 * committed though a task kept none of its rows) is not in the output.
 *
 * <p>Both runtimes ask it at a committed batch and at the run's end, over the {@link Ledger}'s
 * copies; a missing row retention trimmed unread is a {@link PollSkip} instead.
 */
public final class LostWrite {

  public static final Property PROPERTY = new Property("LostWrite", "lost write");

  private LostWrite() {}

  /**
   * Row {@code row} (named by {@code where}) was consumed and is not in the output, its partition
   * trimmed below {@code trimmed}.
   */
  public static void missing(Violations out, long row, long trimmed, String where) {
    if (row < trimmed) {
      PollSkip.trimmedUnread(out, where);
    } else {
      out.add(PROPERTY, where + " is not in the output");
    }
  }

  /** A batch ended committed though a task said it kept none of its rows. */
  public static void committedNotKept(Violations out, long batch, String notKept) {
    out.add(
        PROPERTY,
        "batch " + batch + " committed though a task kept none of its rows (" + notKept + ")");
  }
}
