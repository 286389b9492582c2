package io.ytstream.simulation.check;

/**
 * Transactional: rows of a batch are visible while its consumer advance is not.
 *
 * <p>Over the ledger of what was read and written: OutputLedger finds it.
 */
public final class AbortedRead {

  public static final Property PROPERTY = new Property("AbortedRead", "aborted read");

  private AbortedRead() {}
}
