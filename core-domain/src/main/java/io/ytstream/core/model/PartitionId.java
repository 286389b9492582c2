package io.ytstream.core.model;

import java.util.Comparator;
import java.util.Objects;

/** Partition {@code index} of a queue; partition i is tablet i of the ordered table. */
public record PartitionId(QueueId queue, int index) implements Comparable<PartitionId> {

  private static final Comparator<PartitionId> ORDER =
      Comparator.comparing(PartitionId::queue).thenComparingInt(PartitionId::index);

  public PartitionId {
    Objects.requireNonNull(queue, "queue");
    if (index < 0) {
      throw new IllegalArgumentException("partition index must be >= 0, got " + index);
    }
  }

  @Override
  public int compareTo(PartitionId other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return queue.key() + "#" + index;
  }
}
