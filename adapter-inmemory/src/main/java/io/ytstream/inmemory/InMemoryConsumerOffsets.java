package io.ytstream.inmemory;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.ports.ConsumerOffsets;
import java.util.OptionalLong;

/**
 * Consumer offsets outside a batch transaction. {@link #advance} is a transaction of its own, so it
 * follows the same rules as one (this view's user needs {@code read} on the consumer, the consumer
 * must be registered for the queue, 3100 on a stale {@code oldOffset}).
 */
final class InMemoryConsumerOffsets implements ConsumerOffsets {

  private final ClusterState cluster;
  private final String user;

  InMemoryConsumerOffsets(ClusterState cluster, String user) {
    this.cluster = cluster;
    this.user = user;
  }

  @Override
  public StreamOffsets read(ConsumerId consumer, QueueId queue) {
    synchronized (cluster) {
      return cluster
          .faults()
          .call(
              ClusterOperation.READ_CONSUMER,
              () -> {
                cluster.checkLocal(consumer);
                return ConsumerTableFormat.read(
                    cluster.consumerTable(consumer.path()), queue, Long.MAX_VALUE);
              });
    }
  }

  @Override
  public void advance(
      ConsumerId consumer, PartitionId partition, OptionalLong oldOffset, long newOffset) {
    synchronized (cluster) {
      cluster
          .faults()
          .call(
              ClusterOperation.ADVANCE,
              () -> {
                InMemoryTransaction transaction = InMemoryTransaction.startForOneCall(cluster);
                transaction.bufferAdvance(user, consumer, partition, oldOffset, newOffset);
                transaction.commitNow();
                return null;
              },
              () -> {});
    }
  }
}
