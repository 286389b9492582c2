package io.ytstream.spark.source;

import io.ytstream.application.ReadRanges;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.plan.DataLoss;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.QueueRowBatch;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.config.UserInputErrors;
import io.ytstream.spark.types.ColumnSpec;
import io.ytstream.spark.types.QueueRowConverter;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A micro-batch task: the application's {@link ReadRanges} over the cluster's ports, each row
 * converted for Spark. Trimmed rows skipped under {@code fail_on_data_loss=false} are counted in
 * the task's {@link LostRowsMetric}. A static read's task is the same without a consumer ({@link
 * #withoutConsumer}).
 */
public final class YtPartitionReader implements PartitionReader<InternalRow> {

  private static final Logger LOG = LoggerFactory.getLogger(YtPartitionReader.class);
  static final int PULL_ROWS = 10_000;

  private final YtCluster cluster;
  private final ReadRanges read;
  private final QueueRowConverter converter;
  private long lostRows;
  private InternalRow current;

  YtPartitionReader(
      YtCluster cluster,
      ConsumerId consumer,
      List<OffsetRange> ranges,
      List<ColumnSpec> columns,
      boolean includeServiceColumns,
      boolean multiQueue,
      boolean failOnDataLoss) {
    this.cluster = cluster;
    this.converter = new QueueRowConverter(columns, includeServiceColumns, multiQueue);
    this.read =
        ReadRanges.keepingTextBytes(
            new QueuePartitionReader() {
              @Override
              public List<QueueRow> pull(
                  ConsumerId c, PartitionId partition, long offset, int maxRows) {
                return pullBatchKeepingTextBytes(c, partition, offset, maxRows).rows();
              }

              // Text stays UTF-8 bytes (the converter wraps them as UTF8Strings) and the answer
              // stays flat: each row is converted from it, without the port's row objects.
              @Override
              public QueueRowBatch pullBatchKeepingTextBytes(
                  ConsumerId c, PartitionId partition, long offset, int maxRows) {
                try {
                  return cluster
                      .queueReader()
                      .pullBatchKeepingTextBytes(c, partition, offset, maxRows);
                } catch (RuntimeException e) {
                  throw UserInputErrors.pullFailed(partition.queue().path(), c.path(), e);
                }
              }
            },
            cluster.queueMetadata(),
            consumer,
            ranges,
            PULL_ROWS,
            policy(failOnDataLoss),
            this::skipped);
  }

  private YtPartitionReader(
      YtCluster cluster,
      List<OffsetRange> ranges,
      List<ColumnSpec> columns,
      boolean includeServiceColumns,
      boolean multiQueue,
      boolean failOnDataLoss) {
    this.cluster = cluster;
    this.converter = new QueueRowConverter(columns, includeServiceColumns, multiQueue);
    this.read =
        ReadRanges.withoutConsumer(
            (partition, offset, maxRows) -> {
              try {
                return cluster.queueRangeReader().pull(partition, offset, maxRows);
              } catch (RuntimeException e) {
                throw UserInputErrors.pullFailed(partition.queue().path(), e);
              }
            },
            cluster.queueMetadata(),
            ranges,
            PULL_ROWS,
            policy(failOnDataLoss),
            this::skipped);
  }

  /** A static read's task: the ranges read with {@code pull_queue}, no consumer. */
  public static YtPartitionReader withoutConsumer(
      YtCluster cluster,
      List<OffsetRange> ranges,
      List<ColumnSpec> columns,
      boolean includeServiceColumns,
      boolean multiQueue,
      boolean failOnDataLoss) {
    return new YtPartitionReader(
        cluster, ranges, columns, includeServiceColumns, multiQueue, failOnDataLoss);
  }

  private static DataLossPolicy policy(boolean failOnDataLoss) {
    return failOnDataLoss ? DataLossPolicy.FAIL : DataLossPolicy.SKIP_AND_REPORT;
  }

  private void skipped(DataLoss loss) {
    lostRows += loss.lostRows();
    LOG.warn("skipping trimmed rows (fail_on_data_loss=false): {}", loss);
  }

  @Override
  public boolean next() {
    if (!read.advance()) {
      return false;
    }
    current = converter.convertReusing(read.currentRange().partition(), read.batch(), read.index());
    return true;
  }

  @Override
  public InternalRow get() {
    return current;
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    return new CustomTaskMetric[] {LostRowsMetric.taskValue(lostRows)};
  }

  @Override
  public void close() {
    cluster.close();
  }
}
