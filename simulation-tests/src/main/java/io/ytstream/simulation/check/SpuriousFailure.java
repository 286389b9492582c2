package io.ytstream.simulation.check;

/**
 * A failure no fault makes: a step or a live driver's task failed with a null pointer, an index out
 * of bounds, a bad cast or an arithmetic error (faults answer with the cluster's errors, lost
 * answers and crashes), or a run without any fault failed its query.
 */
public final class SpuriousFailure {

  public static final Property PROPERTY =
      new Property("SpuriousFailure", "failure without a fault");

  private SpuriousFailure() {}

  public static void failed(Violations out, String what) {
    out.add(PROPERTY, what);
  }
}
