package io.ytstream.simulation.check;

/**
 * The query stopped making progress without reporting why: produced rows never consumed, or a query
 * still running on a re-created queue's positions.
 *
 * <p>Over the ledger of what was read and written: the runs' ends find it.
 */
public final class Stuck {

  public static final Property PROPERTY = new Property("Stuck", "stuck (liveness)");

  private Stuck() {}
}
