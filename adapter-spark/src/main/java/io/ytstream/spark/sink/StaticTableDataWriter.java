package io.ytstream.spark.sink;

import io.ytstream.application.StaticTableTaskWriter;
import io.ytstream.ports.TransactionId;
import io.ytstream.ports.spi.YtCluster;
import java.time.Duration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * Spark's writer of one task's rows into a static table: each callback is one call of {@link
 * StaticTableTaskWriter} (the task's rows appended chunk by chunk, {@code
 * spark.yt.write.dynBatchSize} rows at a time, in a master transaction nested in the batch's), rows
 * converted by type.
 */
final class StaticTableDataWriter implements DataWriter<InternalRow> {

  private final YtCluster cluster;
  private final SinkRows rows;
  private final StaticTableTaskWriter writer;
  private final String transactionId;
  private final int partitionId;

  StaticTableDataWriter(
      YtWriteSpec spec,
      TransactionId transaction,
      int partitionId,
      long epochId,
      boolean writes,
      Duration timeout) {
    this.cluster = spec.cluster().connect();
    this.rows = new SinkRows(spec, partitionId);
    this.writer =
        new StaticTableTaskWriter(
            cluster.staticTableAppends(),
            transaction,
            epochId,
            writes,
            spec.path(),
            timeout,
            Math.max(1, spec.dynBatchSize()),
            cluster.time());
    this.transactionId = transaction.value();
    this.partitionId = partitionId;
  }

  @Override
  public void write(InternalRow record) {
    writer.write(rows.toYtRow(record, 0));
  }

  /**
   * A commit that fails may have committed the task's nested transaction (an answer lost): the
   * failure is marked so that the driver's listener refuses the batch rather than let a retry add
   * the rows again.
   */
  @Override
  public WriterCommitMessage commit() {
    try {
      return new StaticTableCommitMessage(writer.commit());
    } catch (RuntimeException e) {
      e.addSuppressed(new BatchWriteJobListener.InsertsStarted(transactionId, partitionId));
      throw e;
    }
  }

  @Override
  public void abort() {
    writer.abort();
  }

  @Override
  public void close() {
    cluster.close();
  }
}
