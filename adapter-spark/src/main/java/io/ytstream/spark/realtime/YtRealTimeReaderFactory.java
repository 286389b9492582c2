package io.ytstream.spark.realtime;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.YPath;
import io.ytstream.spark.config.ClusterRef;
import io.ytstream.spark.types.QueueRowConverter;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

/**
 * Ships what a real-time task needs to executors: the cluster, the consumer, the row layout; each
 * task's partitions come in its {@link YtRealTimeInputPartition}.
 */
public final class YtRealTimeReaderFactory implements PartitionReaderFactory {

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
  public YtRealTimeReaderFactory(
      ClusterRef cluster,
      ConsumerId consumer,
      QueueRowConverter converter,
      boolean failOnDataLoss,
      String readId) {
    this.cluster = cluster;
    this.readId = readId;
    this.consumerCluster = consumer.cluster();
    this.consumerPath = consumer.path().value();
    this.converter = converter;
    this.failOnDataLoss = failOnDataLoss;
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    YtRealTimeInputPartition task = (YtRealTimeInputPartition) partition;
    return new YtRealTimeReader(
        cluster.connect(),
        readId,
        new ConsumerId(consumerCluster, YPath.of(consumerPath)),
        task.starts(),
        converter,
        failOnDataLoss,
        System::currentTimeMillis);
  }
}
