package io.ytstream.application;

import io.ytstream.application.checkpoint.QueryCheckpoint;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.ports.QueuePartitionReader;
import java.util.List;
import java.util.Optional;

/** Streaming sources over the in-memory cluster, with a checkpoint that holds no file. */
final class InMemorySources {

  private InMemorySources() {}

  /** A source of {@code queue} through {@code consumer}, reading rows with {@code reader}. */
  static StreamingSource over(
      InMemoryCluster cluster, QueuePartitionReader reader, ConsumerId consumer, QueueId queue) {
    return over(cluster, reader, consumer, queue, PlanLimits.of(100, DataLossPolicy.FAIL));
  }

  /** A source of {@code queue} through {@code consumer}, planning under {@code limits}. */
  static StreamingSource over(
      InMemoryCluster cluster,
      QueuePartitionReader reader,
      ConsumerId consumer,
      QueueId queue,
      PlanLimits limits) {
    return new StreamingSource(
        new SourcePorts(
            cluster.queueMetadata(),
            cluster.consumerOffsets(),
            reader,
            cluster.queueRangeReader(),
            cluster.tableMetadata()),
        consumer,
        List.of(queue),
        limits,
        Optional.empty(),
        new QueryCheckpoint(new NoCheckpointFiles()),
        0);
  }
}
