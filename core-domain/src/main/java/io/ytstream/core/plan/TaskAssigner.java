package io.ytstream.core.plan;

import io.ytstream.core.model.OffsetRange;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Which task of a micro-batch reads which rows (as Spark's {@code KafkaOffsetRangeCalculator} does
 * for Kafka): one task per range, or, under a {@link TaskSplit}, a range cut into consecutive
 * sub-ranges of near-equal size, one task each, in partition order and row order.
 *
 * <p>The tasks are a function of the batch's ranges and the split alone (integer arithmetic, no
 * clock, no seed), so a batch Spark runs again after a restart gets the same tasks while the
 * options are the same. A batch run again under other options is cut as those options say; every
 * row of the batch is still read by exactly one task.
 */
public final class TaskAssigner {

  private TaskAssigner() {}

  /** Task {@code i} reads range {@code i}. */
  public static List<TaskAssignment> oneTaskPerRange(List<OffsetRange> ranges) {
    return assign(ranges, TaskSplit.none());
  }

  /**
   * The batch's tasks under {@code split}. Empty ranges get no task. With {@code min_tasks} set and
   * fewer non-empty ranges than it, each range gets a share of the tasks in proportion to its rows
   * (rounded half up, at least one); a range whose share is one is left whole, and the others
   * divide what remains of {@code min_tasks} among themselves, as Kafka's {@code minPartitions}
   * does. With {@code max_rows_per_task} set, a range gets at least as many tasks as that cap
   * needs. A range never gets more tasks than rows.
   */
  public static List<TaskAssignment> assign(List<OffsetRange> ranges, TaskSplit split) {
    List<OffsetRange> nonEmpty = new ArrayList<>(ranges.size());
    for (OffsetRange range : ranges) {
      if (!range.isEmpty()) {
        nonEmpty.add(range);
      }
    }
    long[] parts = partsByMinTasks(nonEmpty, split);
    List<TaskAssignment> tasks = new ArrayList<>(nonEmpty.size());
    for (int i = 0; i < nonEmpty.size(); i++) {
      OffsetRange range = nonEmpty.get(i);
      long n = parts[i];
      if (split.maxRowsPerTask().isPresent()) {
        n = Math.max(n, ceilDiv(range.rowCount(), split.maxRowsPerTask().getAsLong()));
      }
      n = Math.min(n, range.rowCount());
      long remaining = range.rowCount();
      long from = range.lower();
      for (long part = 0; part < n; part++) {
        // The later parts take the remainder of the division, as Kafka's split does.
        long size = remaining / (n - part);
        remaining -= size;
        if (tasks.size() == Integer.MAX_VALUE) {
          throw new IllegalArgumentException(
              "a batch cannot run more than "
                  + Integer.MAX_VALUE
                  + " tasks: raise max_rows_per_task");
        }
        tasks.add(
            new TaskAssignment(
                tasks.size(), List.of(new OffsetRange(range.partition(), from, from + size))));
        from += size;
      }
    }
    return tasks;
  }

  /** Each range's tasks by {@code min_tasks}: 1 each unless it is set and not yet met. */
  private static long[] partsByMinTasks(List<OffsetRange> ranges, TaskSplit split) {
    long[] parts = new long[ranges.size()];
    Arrays.fill(parts, 1);
    if (split.minTasks().isEmpty() || ranges.size() >= split.minTasks().getAsInt()) {
      return parts;
    }
    int minTasks = split.minTasks().getAsInt();
    long total = 0;
    for (OffsetRange range : ranges) {
      total += range.rowCount();
    }
    // Ranges too small for a second task are left whole and kept out of the shares of the rest.
    long wholeRows = 0;
    int whole = 0;
    boolean[] keptWhole = new boolean[ranges.size()];
    for (int i = 0; i < ranges.size(); i++) {
      if (share(ranges.get(i).rowCount(), total, minTasks) == 1) {
        keptWhole[i] = true;
        wholeRows += ranges.get(i).rowCount();
        whole++;
      }
    }
    long cutRows = total - wholeRows;
    int cutTasks = Math.max(minTasks - whole, 1);
    for (int i = 0; i < ranges.size(); i++) {
      if (!keptWhole[i]) {
        parts[i] = share(ranges.get(i).rowCount(), cutRows, cutTasks);
      }
    }
    return parts;
  }

  /** {@code round(rows / total * tasks)}, half up, at least 1, in exact integer arithmetic. */
  private static long share(long rows, long total, int tasks) {
    BigInteger twice = BigInteger.valueOf(rows).multiply(BigInteger.valueOf(2L * tasks));
    BigInteger t = BigInteger.valueOf(total);
    long rounded = twice.add(t).divide(t.shiftLeft(1)).longValueExact();
    return Math.max(rounded, 1);
  }

  private static long ceilDiv(long a, long b) {
    return a / b + (a % b == 0 ? 0 : 1);
  }
}
