package io.ytstream.simulation.check;

/**
 * Real-time Mode: the writer's flush timer ticked and rows handed to the writer stayed out of the
 * output, yet the writer's next call did not fail (a timer write that failed must fail the next
 * call).
 */
public final class TimerFlush {

  public static final Property PROPERTY =
      new Property("TimerFlush", "timer flush lost or never made");

  private TimerFlush() {}

  public static void lost(Violations out, String detail) {
    out.add(PROPERTY, detail);
  }
}
