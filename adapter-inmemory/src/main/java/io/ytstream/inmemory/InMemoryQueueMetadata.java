package io.ytstream.inmemory;

import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.QueueId;
import io.ytstream.ports.QueueMetadata;
import java.util.List;

/** {@code @tablet_count} plus {@code get_tablet_infos}: bounds of every partition, now. */
final class InMemoryQueueMetadata implements QueueMetadata {

  private final ClusterState cluster;

  InMemoryQueueMetadata(ClusterState cluster) {
    this.cluster = cluster;
  }

  @Override
  public List<PartitionBounds> partitions(QueueId queue) {
    synchronized (cluster) {
      return cluster
          .faults()
          .call(
              ClusterOperation.PARTITIONS,
              () -> {
                cluster.checkLocal(queue);
                return InMemoryCluster.bounds(cluster.orderedTable(queue.path()));
              });
    }
  }
}
