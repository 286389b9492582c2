package io.ytstream.simulation.check;

/**
 * Real-time Mode: the consumer passed the end of the last committed batch.
 *
 * <p>Asked whenever the consumer moved past the committed end the {@link Ledger}'s runtime last
 * saw, with the end read from the checkpoint as stored.
 */
public final class PrematureCommit {

  public static final Property PROPERTY = new Property("PrematureCommit", "premature commit");

  private PrematureCommit() {}

  /**
   * The consumer of {@code partition} is at {@code consumer}; the last committed end is {@code
   * end}.
   */
  public static void consumer(Violations out, String partition, long consumer, long end) {
    if (consumer > end) {
      out.add(
          PROPERTY,
          "consumer of " + partition + " at " + consumer + ", past the last committed end " + end);
    }
  }
}
