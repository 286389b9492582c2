package io.ytstream.simulation.check;

/**
 * After {@code StreamingQuery.stop()} interrupted the driver mid-call, the step ended with an error
 * Spark does not take for an interruption (the stopped query ends failed), or with the thread's
 * interrupt flag cleared (the query goes on).
 */
public final class StopNotClean {

  public static final Property PROPERTY =
      new Property("StopNotClean", "a query stopped by its user would not end cleanly");

  private StopNotClean() {}

  /**
   * The user stopped the query during {@code step}, which then ended with {@code failure} (null: it
   * returned), the interrupt flag set or not; {@code interruption}: whether Spark takes the failure
   * for an interruption.
   */
  public static void stopped(
      Violations out,
      String step,
      RuntimeException failure,
      boolean interruption,
      boolean interruptFlagSet) {
    if (!interruptFlagSet) {
      out.add(
          PROPERTY,
          step + " cleared the thread's interrupt flag after the stop: the query goes on running");
    } else if (failure != null && !interruption) {
      out.add(
          PROPERTY,
          step
              + " ended with "
              + failure
              + ", which Spark does not take for an interruption: the stopped query ends failed");
    }
  }
}
