package io.ytstream.spark.batch;

import io.ytstream.spark.config.ClusterRef;
import io.ytstream.spark.source.YtInputPartition;
import io.ytstream.spark.source.YtPartitionReader;
import io.ytstream.spark.types.ColumnSpec;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

/** Ships what a static read's executors need: the cluster, the columns and flags; no consumer. */
final class YtBatchReaderFactory implements PartitionReaderFactory {

  private static final long serialVersionUID = 1L;

  private final ClusterRef cluster;
  private final ArrayList<ColumnSpec> columns;
  private final boolean includeServiceColumns;
  private final boolean multiQueue;
  private final boolean failOnDataLoss;

  YtBatchReaderFactory(YtStaticReadSpec spec) {
    this.cluster = spec.cluster();
    this.columns = new ArrayList<>(spec.columns());
    this.includeServiceColumns = spec.includeServiceColumns();
    this.multiQueue = spec.multiQueue();
    this.failOnDataLoss = spec.failOnDataLoss();
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    return YtPartitionReader.withoutConsumer(
        cluster.connect(),
        ((YtInputPartition) partition).ranges(),
        List.copyOf(columns),
        includeServiceColumns,
        multiQueue,
        failOnDataLoss);
  }
}
