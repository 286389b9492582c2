package io.ytstream.simulation.check;

/**
 * A batch planned while the queues stood still holds fewer rows than its caps (rows per partition,
 * rows and bytes per trigger) allow: the stream falls behind for no reason.
 *
 * <p>Over the ledger of what was read and written: Verifier.onPlanned finds it.
 */
public final class BatchUnderfilled {

  public static final Property PROPERTY =
      new Property("BatchUnderfilled", "batch smaller than its caps allow");

  private BatchUnderfilled() {}
}
