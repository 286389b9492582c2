package io.ytstream.simulation.check;

/**
 * After its queue was re-created, the consumer moved on offsets the queue no longer has
 * (micro-batch: in a planning step; Real-time Mode: past the rows the old queue held).
 *
 * <p>Over the ledger of what was read and written: the output checks of both modes find it.
 */
public final class StaleRead {

  public static final Property PROPERTY =
      new Property("StaleRead", "stale read (consumer moved on a re-created queue)");

  private StaleRead() {}
}
