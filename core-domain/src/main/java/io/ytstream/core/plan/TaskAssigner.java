package io.ytstream.core.plan;

import io.ytstream.core.model.OffsetRange;
import java.util.ArrayList;
import java.util.List;

/**
 * Spreads a batch's ranges over at most {@code maxTasks} tasks, balanced by row count: ranges are
 * taken largest first and each goes to the task with the fewest rows so far (ties: lowest task
 * number). With at least as many tasks as ranges, each task reads exactly one range. The result is
 * deterministic and lists tasks in task order, each task's ranges in partition order.
 */
public final class TaskAssigner {

  private TaskAssigner() {}

  public static List<TaskAssignment> assign(List<OffsetRange> ranges, int maxTasks) {
    if (maxTasks < 1) {
      throw new IllegalArgumentException("maxTasks must be >= 1, got " + maxTasks);
    }
    int tasks = Math.min(maxTasks, ranges.size());
    List<List<OffsetRange>> byTask = new ArrayList<>();
    long[] load = new long[tasks];
    for (int t = 0; t < tasks; t++) {
      byTask.add(new ArrayList<>());
    }
    List<OffsetRange> largestFirst = new ArrayList<>(ranges);
    largestFirst.sort(TaskAssigner::largestFirst);
    for (OffsetRange range : largestFirst) {
      int target = 0;
      for (int t = 1; t < tasks; t++) {
        if (load[t] < load[target]) {
          target = t;
        }
      }
      byTask.get(target).add(range);
      load[target] += range.rowCount();
    }
    List<TaskAssignment> result = new ArrayList<>(tasks);
    for (int t = 0; t < tasks; t++) {
      List<OffsetRange> own = byTask.get(t);
      own.sort((a, b) -> a.partition().compareTo(b.partition()));
      result.add(new TaskAssignment(t, own));
    }
    return result;
  }

  /** More rows first, then partition order (written out: a Comparator chain boxed every key). */
  private static int largestFirst(OffsetRange a, OffsetRange b) {
    int byRows = Long.compare(b.rowCount(), a.rowCount());
    return byRows != 0 ? byRows : a.partition().compareTo(b.partition());
  }
}
