package io.ytstream.ytsaurus;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.ports.ConsumerOffsets;
import java.util.OptionalLong;

/** Consumer offsets outside a batch transaction: each advance is a transaction of its own. */
final class HttpConsumerOffsets implements ConsumerOffsets {

  private final YtsaurusCluster cluster;

  HttpConsumerOffsets(YtsaurusCluster cluster) {
    this.cluster = cluster;
  }

  @Override
  public StreamOffsets read(ConsumerId consumer, QueueId queue) {
    return cluster
        .consumerRows()
        .read(consumer, queue, cluster.heavyProxies().forHeavyCommand(), null);
  }

  @Override
  public void advance(
      ConsumerId consumer, PartitionId partition, OptionalLong oldOffset, long newOffset) {
    cluster
        .consumerRows()
        .advance(
            consumer,
            partition,
            oldOffset,
            newOffset,
            ProxyTarget.clusterAddress(cluster.client().primaryProxy()),
            null);
  }
}
