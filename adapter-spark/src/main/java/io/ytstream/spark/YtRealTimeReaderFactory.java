package io.ytstream.spark;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.YPath;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

/** Ships what a real-time task needs to executors: the cluster, the consumer, the row layout. */
final class YtRealTimeReaderFactory implements PartitionReaderFactory {

  private static final long serialVersionUID = 1L;

  private final ClusterRef cluster;
  private final String readId;
  private final String consumerCluster;
  private final String consumerPath;
  private final QueueRowConverter converter;
  private final boolean failOnDataLoss;

  /**
   * @param readId this query run's source, so that a task finds the rows its predecessor left
   *     ({@link CarriedRows})
   */
  YtRealTimeReaderFactory(YtSourceSpec spec, String readId) {
    this.cluster = spec.cluster();
    this.readId = readId;
    this.consumerCluster = spec.consumer().cluster();
    this.consumerPath = spec.consumer().path().value();
    this.converter =
        new QueueRowConverter(spec.columns(), spec.includeServiceColumns(), spec.multiQueue());
    this.failOnDataLoss = spec.failOnDataLoss();
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    YtRealTimeInputPartition task = (YtRealTimeInputPartition) partition;
    return new YtRealTimeReader(
        cluster.connect(),
        readId,
        new ConsumerId(consumerCluster, YPath.of(consumerPath)),
        task.partition(),
        task.start(),
        converter,
        failOnDataLoss,
        System::currentTimeMillis);
  }
}
