package io.ytstream.simulation.check;

/**
 * Producer mode: a session's sequence number or epoch went back.
 *
 * <p>Over the ledger of what was read and written: ProducerSessionChecks finds it.
 */
public final class NonmonotonicSequence {

  public static final Property PROPERTY =
      new Property("NonmonotonicSequence", "nonmonotonic sequence numbers");

  private NonmonotonicSequence() {}
}
