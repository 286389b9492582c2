package io.ytstream.simulation.check;

/**
 * Producer writers: a source partition's rows come into an output tablet out of source order.
 *
 * <p>Over the ledger of what was read and written: OutputLedger and RealTimeOutput find it.
 */
public final class NonmonotonicSend {

  public static final Property PROPERTY =
      new Property("NonmonotonicSend", "nonmonotonic send (output out of source order)");

  private NonmonotonicSend() {}
}
