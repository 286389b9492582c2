package io.ytstream.inmemory;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueRangeReader;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * {@code pull_queue_consumer}: checks the consumer and its registration (901), then returns rows
 * from {@code max(offset, trimmed_row_count)}. A trimmed offset is silently skipped, as on a real
 * tablet node. Reads can be made short on purpose with {@link InMemoryCluster#setMaxRowsPerPull}.
 * {@code pull_queue} is the same read without the consumer's checks.
 */
final class InMemoryQueueReader implements QueuePartitionReader, QueueRangeReader {

  private final ClusterState cluster;

  InMemoryQueueReader(ClusterState cluster) {
    this.cluster = cluster;
  }

  @Override
  public List<QueueRow> pull(ConsumerId consumer, PartitionId partition, long offset, int maxRows) {
    synchronized (cluster) {
      return cluster
          .faults()
          .call(ClusterOperation.PULL, () -> read(consumer, partition, offset, maxRows));
    }
  }

  @Override
  public List<QueueRow> pull(PartitionId partition, long offset, int maxRows) {
    synchronized (cluster) {
      return cluster.faults().call(ClusterOperation.PULL, () -> read(partition, offset, maxRows));
    }
  }

  private List<QueueRow> read(
      ConsumerId consumer, PartitionId partition, long offset, int maxRows) {
    YPath queuePath = partition.queue().path();
    checkArguments(queuePath, offset, maxRows);
    cluster.checkLocal(consumer);
    cluster.checkLocal(partition.queue());
    cluster.consumerTable(consumer.path());
    if (!cluster.registrations().isRegistered(queuePath, consumer.path())) {
      throw ClusterErrors.notRegistered(consumer.toString(), partition.queue().key());
    }
    return read(partition, offset, maxRows);
  }

  private static void checkArguments(YPath queuePath, long offset, int maxRows) {
    if (offset < 0) {
      throw new IllegalArgumentException(
          "Cannot read table " + queuePath.value() + " at a negative offset " + offset);
    }
    if (maxRows <= 0) {
      throw new IllegalArgumentException("maxRows must be > 0, got " + maxRows);
    }
  }

  private List<QueueRow> read(PartitionId partition, long offset, int maxRows) {
    YPath queuePath = partition.queue().path();
    checkArguments(queuePath, offset, maxRows);
    cluster.checkLocal(partition.queue());
    OrderedTable table = cluster.orderedTable(queuePath);
    OrderedTablet tablet = cluster.tablet(queuePath, partition.index());
    boolean withTimestamp = table.schema().declares(StoredSchema.TIMESTAMP);
    boolean withWeight = table.schema().declares(StoredSchema.CUMULATIVE_DATA_WEIGHT);
    List<StoredQueueRow> stored = tablet.read(offset, Math.min(maxRows, cluster.maxRowsPerPull()));
    List<QueueRow> result = new ArrayList<>(stored.size());
    for (StoredQueueRow row : stored) {
      Row data = row.data();
      result.add(
          new QueueRow(
              partition.index(),
              row.rowIndex(),
              data,
              withTimestamp ? OptionalLong.of(row.timestamp()) : OptionalLong.empty(),
              withWeight ? OptionalLong.of(row.cumulativeDataWeight()) : OptionalLong.empty()));
    }
    return result;
  }
}
