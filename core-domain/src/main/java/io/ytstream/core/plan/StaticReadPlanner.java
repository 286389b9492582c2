package io.ytstream.core.plan;

import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Plans a static read of {@code [start, end)} per partition (Kafka's batch read of {@code
 * startingOffsets} to the exclusive {@code endingOffsets}): trimmed rows in the range are data loss
 * (fail, or skip from the partition's first row and report them), an end before its start is the
 * user's error ({@link EndBeforeStart}), and each partition's range is cut into tasks of at most
 * {@code maxRowsPerTask} rows, so a task's size does not grow with the range.
 */
public final class StaticReadPlanner {

  private StaticReadPlanner() {}

  /**
   * @param start each partition's first row to read, for every partition of {@code bounds}
   * @param end each partition's end (exclusive), for every partition of {@code bounds}
   * @throws IllegalArgumentException when an end is before its start, or a partition lacks either
   * @throws DataLossException when rows of the range were trimmed and the policy is to fail
   */
  public static StaticReadPlan plan(
      StreamOffsets start,
      StreamOffsets end,
      QueueBounds bounds,
      long maxRowsPerTask,
      DataLossPolicy policy) {
    if (maxRowsPerTask < 1) {
      throw new IllegalArgumentException("maxRowsPerTask must be >= 1, got " + maxRowsPerTask);
    }
    Optional<EndBeforeStart> reversed = endBeforeStart(start, end, bounds);
    if (reversed.isPresent()) {
      throw new IllegalArgumentException(reversed.get().toString());
    }
    List<OffsetRange> ranges = new ArrayList<>();
    List<DataLoss> losses = new ArrayList<>();
    for (int i = 0; i < bounds.size(); i++) {
      PartitionId partition = bounds.partitionAt(i);
      PartitionBounds b = bounds.boundsAt(i);
      long lower = required(start, partition, "start");
      long upper = required(end, partition, "end");
      if (lower < b.trimmedRowCount() && lower < upper) {
        losses.add(new DataLoss(partition, lower, Math.min(b.trimmedRowCount(), upper)));
        lower = Math.min(b.trimmedRowCount(), upper);
      }
      for (long from = lower; from < upper; from += Math.min(maxRowsPerTask, upper - from)) {
        ranges.add(new OffsetRange(partition, from, from + Math.min(maxRowsPerTask, upper - from)));
      }
    }
    if (!losses.isEmpty() && policy == DataLossPolicy.FAIL) {
      throw new DataLossException(losses);
    }
    return new StaticReadPlan(ranges, losses);
  }

  /**
   * The first partition, in partition order, whose end is before its start: a range {@link #plan}
   * refuses. Empty when there is none before the first partition lacking a start or an end (which
   * {@link #plan} refuses for that).
   */
  public static Optional<EndBeforeStart> endBeforeStart(
      StreamOffsets start, StreamOffsets end, QueueBounds bounds) {
    for (int i = 0; i < bounds.size(); i++) {
      PartitionId partition = bounds.partitionAt(i);
      OptionalLong lower = start.get(partition);
      OptionalLong upper = end.get(partition);
      if (lower.isEmpty() || upper.isEmpty()) {
        return Optional.empty();
      }
      if (upper.getAsLong() < lower.getAsLong()) {
        return Optional.of(new EndBeforeStart(partition, lower.getAsLong(), upper.getAsLong()));
      }
    }
    return Optional.empty();
  }

  private static long required(StreamOffsets offsets, PartitionId partition, String which) {
    if (offsets.get(partition).isEmpty()) {
      throw new IllegalArgumentException("no " + which + " offset for " + partition);
    }
    return offsets.get(partition).getAsLong();
  }
}
