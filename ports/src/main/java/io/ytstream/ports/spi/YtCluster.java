package io.ytstream.ports.spi;

import io.ytstream.ports.CheckpointStore;
import io.ytstream.ports.ConsumerOffsets;
import io.ytstream.ports.OutputTables;
import io.ytstream.ports.QueueMetadata;
import io.ytstream.ports.QueuePartitionReader;
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

  @Override
  void close();
}
