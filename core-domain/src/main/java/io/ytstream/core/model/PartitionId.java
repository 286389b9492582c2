package io.ytstream.core.model;

import java.util.Objects;

/** Partition {@code index} of a queue; partition i is tablet i of the ordered table. */
public record PartitionId(QueueId queue, int index) implements Comparable<PartitionId> {

  public PartitionId {
    Objects.requireNonNull(queue, "queue");
    if (index < 0) {
      throw new IllegalArgumentException("partition index must be >= 0, got " + index);
    }
  }

  @Override
  @SuppressWarnings("ReferenceEquality") // identity first: partitions of one queue share it
  public int compareTo(PartitionId other) {
    // Written out rather than a Comparator chain: the planner compares partitions of one queue
    // thousands of times per batch, and those share one QueueId, so the queue step is mostly free.
    if (queue != other.queue) {
      int byQueue = queue.compareTo(other.queue);
      if (byQueue != 0) {
        return byQueue;
      }
    }
    return Integer.compare(index, other.index);
  }

  @Override
  public String toString() {
    return queue.key() + "#" + index;
  }
}
