package io.ytstream.inmemory;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueRangeReader;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.QueueRowBatch;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * {@code pull_queue_consumer}: checks {@code read} on the consumer for this reader's user, then the
 * registration (901 either way), then returns rows from {@code max(offset, trimmed_row_count)}. A
 * trimmed offset is silently skipped, as on a real tablet node. Reads can be made short on purpose
 * with {@link InMemoryCluster#setMaxRowsPerPull}. {@code pull_queue} is the same read with {@code
 * read} checked on the queue instead. The checks are the native client's (the registration's 901
 * comes from {@code yt/yt/ytlib/queue_client/registration_manager.cpp}, {@code
 * GetRegistrationOrThrow}); the permission checks are as the project's reference notes on the
 * server's code state them, the native client's pull code itself not being in the searchable index.
 */
final class InMemoryQueueReader implements QueuePartitionReader, QueueRangeReader {

  private final ClusterState cluster;
  private final String user;

  InMemoryQueueReader(ClusterState cluster, String user) {
    this.cluster = cluster;
    this.user = user;
  }

  private void checkRead(YPath path) {
    cluster.accessControl().check(cluster.tree(), user, path, "read", Optional.empty());
  }

  @Override
  public List<QueueRow> pull(ConsumerId consumer, PartitionId partition, long offset, int maxRows) {
    synchronized (cluster) {
      return cluster
          .faults()
          .call(ClusterOperation.PULL, () -> read(consumer, partition, offset, maxRows, false));
    }
  }

  /** As {@link #pull}, text as UTF-8 {@code byte[]}s, each row's encoded once and kept. */
  @Override
  public List<QueueRow> pullKeepingTextBytes(
      ConsumerId consumer, PartitionId partition, long offset, int maxRows) {
    synchronized (cluster) {
      return cluster
          .faults()
          .call(ClusterOperation.PULL, () -> read(consumer, partition, offset, maxRows, true));
    }
  }

  @Override
  public List<QueueRow> pull(PartitionId partition, long offset, int maxRows) {
    synchronized (cluster) {
      return cluster
          .faults()
          .call(
              ClusterOperation.PULL,
              () -> {
                checkArguments(partition.queue().path(), offset, maxRows);
                cluster.checkLocal(partition.queue());
                cluster.orderedTable(partition.queue().path());
                checkRead(partition.queue().path());
                return read(partition, offset, maxRows, false);
              });
    }
  }

  /**
   * As {@link #pullKeepingTextBytes}, read by index: over the tablet's rows held flat ({@link
   * FlatRowsChunk}; a pull then ends at the end of a chunk, as a tablet node's ends at the end of
   * each ordered store, {@code yt/yt/server/node/query_agent/query_service.cpp}), or over the
   * stored rows where a chunk cannot hold them. No {@link QueueRow} per row either way.
   */
  @Override
  public QueueRowBatch pullBatchKeepingTextBytes(
      ConsumerId consumer, PartitionId partition, long offset, int maxRows) {
    synchronized (cluster) {
      return cluster
          .faults()
          .call(
              ClusterOperation.PULL,
              () -> {
                checkConsumerRead(consumer, partition, offset, maxRows);
                OrderedTable table = cluster.orderedTable(partition.queue().path());
                Set<String> text = textColumns(table);
                boolean timestamps = table.schema().declares(StoredSchema.TIMESTAMP);
                boolean weights = table.schema().declares(StoredSchema.CUMULATIVE_DATA_WEIGHT);
                FlatRowsBatch flat =
                    cluster
                        .tablet(partition.queue().path(), partition.index())
                        .readFlat(
                            partition.index(),
                            offset,
                            Math.min(maxRows, cluster.maxRowsPerPull()),
                            text,
                            timestamps,
                            weights);
                return flat != null
                    ? flat
                    : new StoredRowsBatch(
                        partition.index(),
                        stored(partition, offset, maxRows),
                        text,
                        timestamps,
                        weights);
              });
    }
  }

  private List<QueueRow> read(
      ConsumerId consumer, PartitionId partition, long offset, int maxRows, boolean textBytes) {
    checkConsumerRead(consumer, partition, offset, maxRows);
    return read(partition, offset, maxRows, textBytes);
  }

  private void checkConsumerRead(
      ConsumerId consumer, PartitionId partition, long offset, int maxRows) {
    YPath queuePath = partition.queue().path();
    checkArguments(queuePath, offset, maxRows);
    cluster.checkLocal(consumer);
    cluster.checkLocal(partition.queue());
    cluster.consumerTable(consumer.path());
    checkRead(consumer.path());
    if (!cluster.registrations().isRegistered(queuePath, consumer.path())) {
      throw ClusterErrors.notRegistered(consumer.toString(), partition.queue().key());
    }
  }

  /** The tablet's rows from {@code max(offset, trimmed)}, at most a pull's. */
  private List<StoredQueueRow> stored(PartitionId partition, long offset, int maxRows) {
    cluster.checkLocal(partition.queue());
    OrderedTablet tablet = cluster.tablet(partition.queue().path(), partition.index());
    return tablet.read(offset, Math.min(maxRows, cluster.maxRowsPerPull()));
  }

  /** The table's columns whose values are text: {@code string} or {@code utf8}. */
  private static Set<String> textColumns(OrderedTable table) {
    Set<String> names = new HashSet<>();
    for (TableDescription.Column c : table.schema().columns()) {
      if (c.type().equals("string") || c.type().equals("utf8")) {
        names.add(c.name());
      }
    }
    return names;
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

  private List<QueueRow> read(PartitionId partition, long offset, int maxRows, boolean textBytes) {
    YPath queuePath = partition.queue().path();
    checkArguments(queuePath, offset, maxRows);
    cluster.checkLocal(partition.queue());
    OrderedTable table = cluster.orderedTable(queuePath);
    boolean withTimestamp = table.schema().declares(StoredSchema.TIMESTAMP);
    boolean withWeight = table.schema().declares(StoredSchema.CUMULATIVE_DATA_WEIGHT);
    Set<String> text = textBytes ? textColumns(table) : Set.of();
    List<StoredQueueRow> stored = stored(partition, offset, maxRows);
    List<QueueRow> result = new ArrayList<>(stored.size());
    for (StoredQueueRow row : stored) {
      Row data = textBytes ? row.textBytes(text) : row.data();
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
