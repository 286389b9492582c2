package io.ytstream.core.plan;

import io.ytstream.core.model.OffsetRange;
import java.util.ArrayList;
import java.util.List;

/**
 * Which task of a micro-batch reads which range (as Spark's {@code KafkaOffsetRangeCalculator} does
 * for Kafka): one task per range, in the ranges' (partition) order. A partition's rows are read by
 * one task, so its order within the batch is the queue's.
 */
public final class TaskAssigner {

  private TaskAssigner() {}

  /** Task {@code i} reads range {@code i}. */
  public static List<TaskAssignment> oneTaskPerRange(List<OffsetRange> ranges) {
    List<TaskAssignment> tasks = new ArrayList<>(ranges.size());
    for (OffsetRange range : ranges) {
      tasks.add(new TaskAssignment(tasks.size(), List.of(range)));
    }
    return tasks;
  }
}
