package io.ytstream.spark.source;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.YPath;
import io.ytstream.spark.config.ClusterRef;
import io.ytstream.spark.types.ColumnSpec;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

/** Ships what executors need to read: the cluster, the consumer, the columns and flags. */
final class YtReaderFactory implements PartitionReaderFactory {

  private static final long serialVersionUID = 1L;

  private final ClusterRef cluster;
  private final String consumerCluster;
  private final String consumerPath;
  private final ArrayList<ColumnSpec> columns;
  private final boolean includeServiceColumns;
  private final boolean multiQueue;
  private final boolean failOnDataLoss;

  YtReaderFactory(YtSourceSpec spec) {
    this.cluster = spec.cluster();
    this.consumerCluster = spec.consumer().cluster();
    this.consumerPath = spec.consumer().path().value();
    this.columns = new ArrayList<>(spec.columns());
    this.includeServiceColumns = spec.includeServiceColumns();
    this.multiQueue = spec.multiQueue();
    this.failOnDataLoss = spec.failOnDataLoss();
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    List<ColumnSpec> cols = List.copyOf(columns);
    return new YtPartitionReader(
        cluster.connect(),
        new ConsumerId(consumerCluster, YPath.of(consumerPath)),
        ((YtInputPartition) partition).ranges(),
        cols,
        includeServiceColumns,
        multiQueue,
        failOnDataLoss);
  }
}
