package io.ytstream.ports.spi;

import io.ytstream.ports.CheckpointStore;
import io.ytstream.ports.ConsumerOffsets;
import io.ytstream.ports.OutputTables;
import io.ytstream.ports.QueueMetadata;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueProducers;
import io.ytstream.ports.QueueRangeReader;
import io.ytstream.ports.StaticTableAppends;
import io.ytstream.ports.TableMetadata;
import io.ytstream.ports.TabletTransactions;
import io.ytstream.ports.TimeSource;

/** A connection to one cluster: every port the protocol needs, from one adapter. */
public interface YtCluster extends AutoCloseable {

  /** The cluster's name ({@code //sys/@cluster_name}), used in consumer rows and offset keys. */
  String name();

  QueuePartitionReader queueReader();

  QueueMetadata queueMetadata();

  ConsumerOffsets consumerOffsets();

  TabletTransactions transactions();

  OutputTables outputTables();

  TableMetadata tableMetadata();

  CheckpointStore checkpoints();

  TimeSource time();

  /**
   * Queue producer sessions and pushes. A connection that does not serve them (a wrapper written
   * before they existed) says so rather than pretending.
   */
  default QueueProducers queueProducers() {
    throw new UnsupportedOperationException(
        getClass().getName()
            + " does not serve queue producers; use a connection from adapter-ytsaurus or"
            + " adapter-inmemory, or delegate queueProducers() in the wrapper");
  }

  /**
   * Reads of a queue without a consumer ({@code pull_queue}). A connection that does not serve them
   * (a wrapper written before they existed) says so rather than pretending.
   */
  default QueueRangeReader queueRangeReader() {
    throw new UnsupportedOperationException(
        getClass().getName()
            + " does not serve reads without a consumer; use a connection from adapter-ytsaurus or"
            + " adapter-inmemory, or delegate queueRangeReader() in the wrapper");
  }

  /**
   * Appends to static tables in master transactions, with the table attributes written in them. A
   * connection that does not serve them (a wrapper written before they existed) says so rather than
   * pretending.
   */
  default StaticTableAppends staticTableAppends() {
    throw new UnsupportedOperationException(
        getClass().getName()
            + " does not serve static table appends; use a connection from adapter-ytsaurus or"
            + " adapter-inmemory, or delegate staticTableAppends() in the wrapper");
  }

  @Override
  void close();
}
