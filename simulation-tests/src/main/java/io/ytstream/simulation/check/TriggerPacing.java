package io.ytstream.simulation.check;

/**
 * {@code min_rows_per_trigger}: a trigger was held back though its rows were there, its delay had
 * passed, it was the source's first, or the run is Trigger.AvailableNow; or a trigger with fewer
 * rows ran before its delay passed.
 *
 * <p>Over the ledger of what was read and written: Verifier.onPaced finds it.
 */
public final class TriggerPacing {

  public static final Property PROPERTY =
      new Property("TriggerPacing", "trigger held back or run against min_rows_per_trigger");

  private TriggerPacing() {}
}
