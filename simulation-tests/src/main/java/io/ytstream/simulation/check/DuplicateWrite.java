package io.ytstream.simulation.check;

/**
 * A source row is in the output more than once where the writer promises exactly once (counted, not
 * a violation, for at-least-once and the append writer).
 *
 * <p>Over the ledger of what was read and written: OutputLedger and RealTimeOutput find it.
 */
public final class DuplicateWrite {

  public static final Property PROPERTY = new Property("DuplicateWrite", "duplicate write");

  private DuplicateWrite() {}
}
