package io.ytstream.simulation.check;

/**
 * The query stopped making progress without reporting why: produced rows never consumed, or a query
 * still running on a re-created queue's positions.
 *
 * <p>Asked at the end of a run, over the {@link Ledger}'s produced rows and consumer.
 */
public final class Stuck {

  public static final Property PROPERTY = new Property("Stuck", "stuck (liveness)");

  private Stuck() {}

  /**
   * The run ended with rows produced and not consumed ({@code detail} says which) and the query did
   * not stop with a reason it reported.
   */
  public static void unconsumed(Violations out, boolean stoppedWithReason, String detail) {
    if (!stoppedWithReason) {
      out.add(PROPERTY, detail);
    }
  }

  /**
   * The run ended after the queue was re-created: unless the query stopped, its positions must fit
   * the new, empty queue ({@code fits}).
   */
  public static void afterRecreation(Violations out, boolean stopped, boolean fits) {
    if (!stopped && !fits) {
      out.add(
          PROPERTY,
          "the queue was re-created and the query still runs on the old queue's positions");
    }
  }
}
