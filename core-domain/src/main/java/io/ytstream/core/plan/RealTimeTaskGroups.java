package io.ytstream.core.plan;

import io.ytstream.core.model.PartitionId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Which queue partitions each real-time task reads when one task reads up to {@code perTask} of
 * them: contiguous blocks in partition order (queue, then tablet index), task {@code i} reading the
 * {@code i}-th block of {@code perTask}, the last block holding the rest.
 *
 * <p>Blocks rather than {@code p mod tasks}: the task count is then the fewest that fit ({@code
 * ceil(partitions / perTask)}, what the slot check counts), and a reshard that adds tablets at the
 * end of a queue leaves every earlier block as it was (new tablets fill the last task, then new
 * ones), where {@code p mod tasks} would move almost every partition to another task as the count
 * changes. A partition's task only decides which thread reads it: every row carries its source
 * position, and each writer keys its state by that position, not by the task.
 */
public final class RealTimeTaskGroups {

  private RealTimeTaskGroups() {}

  /**
   * The tasks' partitions with their starts, in order; every partition of {@code starts} is in
   * exactly one task.
   */
  public static List<SortedMap<PartitionId, Long>> assign(
      SortedMap<PartitionId, Long> starts, int perTask) {
    requirePositive(perTask);
    List<SortedMap<PartitionId, Long>> tasks = new ArrayList<>();
    TreeMap<PartitionId, Long> current = new TreeMap<>();
    for (Map.Entry<PartitionId, Long> e : new TreeMap<>(starts).entrySet()) {
      current.put(e.getKey(), e.getValue());
      if (current.size() == perTask) {
        tasks.add(Collections.unmodifiableSortedMap(current));
        current = new TreeMap<>();
      }
    }
    if (!current.isEmpty()) {
      tasks.add(Collections.unmodifiableSortedMap(current));
    }
    return List.copyOf(tasks);
  }

  private static void requirePositive(int perTask) {
    if (perTask < 1) {
      throw new IllegalArgumentException("partitions per task must be >= 1, got " + perTask);
    }
  }
}
