package io.ytstream.simulation.check;

/**
 * Rows trimmed before they were read were passed (a committed end or the consumer) with neither a
 * report ({@code fail_on_data_loss=false}) nor a failure ({@code true}).
 *
 * <p>A row the query passed that is missing from the output is a poll skip when retention trimmed
 * it unread and no task reported it lost, which {@link LostWrite} and {@link ConsumerAheadOfOutput}
 * tell before they report it as theirs.
 */
public final class PollSkip {

  public static final Property PROPERTY = new Property("PollSkip", "poll skip (unreported)");

  private PollSkip() {}

  /** {@code where} (a partition's row) was trimmed before it was read and never reported. */
  public static void trimmedUnread(Violations out, String where) {
    out.add(PROPERTY, where + " was trimmed, unread, unreported");
  }
}
