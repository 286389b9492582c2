package io.ytstream.simulation.check;

/**
 * A source row the query consumed (below a committed end or the final consumer, or a batch
 * committed though a task kept none of its rows) is not in the output.
 *
 * <p>Over the ledger of what was read and written: OutputLedger (micro-batch) and RealTimeOutput
 * (Real-time Mode) find it.
 */
public final class LostWrite {

  public static final Property PROPERTY = new Property("LostWrite", "lost write");

  private LostWrite() {}
}
