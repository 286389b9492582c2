package io.ytstream.core.model;

/**
 * Compares partitions exactly as {@link PartitionId#compareTo} does, remembering the last two
 * queues it compared. Merging two long sorted runs of partitions (a checkpoint read from JSON and
 * the bounds read from the cluster hold equal but distinct {@link QueueId} objects) then compares
 * the queues' names once per run and the partition indexes after that.
 *
 * <p>Mutable: use one per merge, never from two threads.
 */
public final class PartitionOrder {

  private QueueId lastLeft;
  private QueueId lastRight;
  private int lastQueueOrder;

  @SuppressWarnings("ReferenceEquality") // identity is the point: the cache is keyed by object
  public int compare(PartitionId left, PartitionId right) {
    if (left == right) {
      return 0;
    }
    QueueId leftQueue = left.queue();
    QueueId rightQueue = right.queue();
    int byQueue;
    if (leftQueue == rightQueue) {
      byQueue = 0;
    } else if (leftQueue == lastLeft && rightQueue == lastRight) {
      byQueue = lastQueueOrder;
    } else {
      byQueue = leftQueue.compareTo(rightQueue);
      lastLeft = leftQueue;
      lastRight = rightQueue;
      lastQueueOrder = byQueue;
    }
    return byQueue != 0 ? byQueue : Integer.compare(left.index(), right.index());
  }
}
