package io.ytstream.simulation.check;

import java.util.List;
import java.util.Set;

/**
 * Real-time Mode: the first batch of a run planned other tasks than {@code prepareForRealTimeMode}
 * named for the engine's slot check over the same partitions.
 */
public final class SlotCheck {

  public static final Property PROPERTY =
      new Property("SlotCheck", "tasks other than the slot check counted");

  private SlotCheck() {}

  /** The first batch's tasks over the partitions the slot check was told of. */
  public static <P> void firstTasks(
      Violations out, List<? extends Set<P>> slots, List<? extends Set<P>> tasks) {
    if (!slots.equals(tasks)) {
      out.add(PROPERTY, "the slot check counted " + slots + ", the batch ran " + tasks);
    }
  }
}
