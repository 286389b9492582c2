package io.ytstream.core.plan;

import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** The current bounds of every partition of every queue a stream reads, in partition order. */
public final class QueueBounds {

  private final SortedMap<PartitionId, PartitionBounds> bounds;

  private QueueBounds(SortedMap<PartitionId, PartitionBounds> bounds) {
    this.bounds = bounds;
  }

  /**
   * @param byQueue each queue's partitions as {@code QueueMetadata.partitions} returns them (index
   *     {@code 0..n-1} in order)
   */
  public static QueueBounds of(Map<QueueId, List<PartitionBounds>> byQueue) {
    TreeMap<PartitionId, PartitionBounds> all = new TreeMap<>();
    new TreeMap<>(byQueue)
        .forEach(
            (queue, partitions) -> {
              for (int i = 0; i < partitions.size(); i++) {
                PartitionBounds p = partitions.get(i);
                if (p.index() != i) {
                  throw new IllegalArgumentException(
                      "partitions of "
                          + queue
                          + " must be listed by index 0..n-1; entry "
                          + i
                          + " has index "
                          + p.index());
                }
                all.put(new PartitionId(queue, i), p);
              }
            });
    return new QueueBounds(all);
  }

  public static QueueBounds ofQueue(QueueId queue, List<PartitionBounds> partitions) {
    return of(Map.of(queue, partitions));
  }

  public SortedMap<PartitionId, PartitionBounds> asMap() {
    return java.util.Collections.unmodifiableSortedMap(bounds);
  }

  public PartitionBounds get(PartitionId partition) {
    return bounds.get(partition);
  }
}
