package io.ytstream.simulation.check;

/**
 * An output row names no source row, or carries another value than its source row's.
 *
 * <p>Over the ledger of what was read and written: OutputLedger and RealTimeOutput find it.
 */
public final class GarbageWrite {

  public static final Property PROPERTY = new Property("GarbageWrite", "garbage write");

  private GarbageWrite() {}
}
