package io.ytstream.core.plan;

import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * How a micro-batch's partition ranges are split into tasks, so one partition's backlog is read by
 * several cores ({@link TaskAssigner#assign}).
 *
 * @param minTasks the fewest tasks a batch with rows should run ({@code min_tasks}, Kafka's {@code
 *     minPartitions}): when the batch has fewer non-empty ranges, the large ranges are cut in
 *     proportion to their rows; approximate, as Kafka's is (rounding, and a range is never cut
 *     below one row per task)
 * @param maxRowsPerTask the most rows one task reads ({@code max_rows_per_task}): a larger range is
 *     cut into equal parts of at most this many rows
 */
public record TaskSplit(OptionalInt minTasks, OptionalLong maxRowsPerTask) {

  public TaskSplit {
    if (minTasks.isPresent() && minTasks.getAsInt() < 1) {
      throw new IllegalArgumentException("min_tasks must be >= 1, got " + minTasks.getAsInt());
    }
    if (maxRowsPerTask.isPresent() && maxRowsPerTask.getAsLong() < 1) {
      throw new IllegalArgumentException(
          "max_rows_per_task must be >= 1, got " + maxRowsPerTask.getAsLong());
    }
  }

  /** No split: one task per range. */
  public static TaskSplit none() {
    return new TaskSplit(OptionalInt.empty(), OptionalLong.empty());
  }

  /** Whether either option is set, so a range may be read by more than one task. */
  public boolean mayCutRanges() {
    return minTasks.isPresent() || maxRowsPerTask.isPresent();
  }

  /** The options set, as the user wrote them, for a message about them. */
  public String describe() {
    StringBuilder out = new StringBuilder();
    minTasks.ifPresent(v -> out.append("min_tasks = ").append(v));
    maxRowsPerTask.ifPresent(
        v -> out.append(out.length() > 0 ? " and " : "").append("max_rows_per_task = ").append(v));
    return out.toString();
  }
}
