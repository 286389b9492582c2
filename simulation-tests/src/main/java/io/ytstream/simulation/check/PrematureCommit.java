package io.ytstream.simulation.check;

/**
 * Real-time Mode: the consumer passed the end of the last committed batch.
 *
 * <p>Over the ledger of what was read and written: RealTimeOutput finds it.
 */
public final class PrematureCommit {

  public static final Property PROPERTY = new Property("PrematureCommit", "premature commit");

  private PrematureCommit() {}
}
