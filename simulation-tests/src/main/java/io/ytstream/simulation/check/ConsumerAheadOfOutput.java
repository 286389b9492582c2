package io.ytstream.simulation.check;

/**
 * The consumer passed a row that is not in the output: a restart would skip it.
 *
 * <p>Over the ledger of what was read and written: OutputLedger and RealTimeOutput find it.
 */
public final class ConsumerAheadOfOutput {

  public static final Property PROPERTY =
      new Property("ConsumerAheadOfOutput", "lost write (consumer committed past unwritten rows)");

  private ConsumerAheadOfOutput() {}
}
