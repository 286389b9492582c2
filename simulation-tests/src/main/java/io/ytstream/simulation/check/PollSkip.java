package io.ytstream.simulation.check;

/**
 * Rows trimmed before they were read were passed (a committed end or the consumer) with neither a
 * report ({@code fail_on_data_loss=false}) nor a failure ({@code true}).
 *
 * <p>Over the ledger of what was read and written: OutputLedger and RealTimeOutput find it.
 */
public final class PollSkip {

  public static final Property PROPERTY = new Property("PollSkip", "poll skip (unreported)");

  private PollSkip() {}
}
