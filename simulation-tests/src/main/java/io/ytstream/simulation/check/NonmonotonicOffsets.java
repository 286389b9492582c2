package io.ytstream.simulation.check;

/**
 * The consumer, or the committed batches' ends, went back.
 *
 * <p>Over the ledger of what was read and written: the output checks of both modes find it.
 */
public final class NonmonotonicOffsets {

  public static final Property PROPERTY =
      new Property("NonmonotonicOffsets", "nonmonotonic offsets");

  private NonmonotonicOffsets() {}
}
