package io.ytstream.core.plan;

import io.ytstream.core.model.PartitionId;

/**
 * A static read's range whose end (exclusive) is before its start in one partition: the read is
 * refused ({@link StaticReadPlanner}). The caller, which knows the options that gave both, names
 * them in its error.
 */
public record EndBeforeStart(PartitionId partition, long start, long end) {

  public EndBeforeStart {
    if (end >= start) {
      throw new IllegalArgumentException("end " + end + " is not before start " + start);
    }
  }

  @Override
  public String toString() {
    return "the read of "
        + partition.queue().path()
        + " partition "
        + partition.index()
        + " ends at "
        + end
        + ", before its start "
        + start
        + ": give an end at or after the start (the end is exclusive)";
  }
}
