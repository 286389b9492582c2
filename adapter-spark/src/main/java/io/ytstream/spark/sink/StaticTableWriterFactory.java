package io.ytstream.spark.sink;

import io.ytstream.ports.TransactionId;
import java.time.Duration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.streaming.StreamingDataWriterFactory;

/**
 * The plan of a static table batch shipped to executors: the output, the batch's master
 * transaction, and whether the table already records the batch (then the tasks send nothing).
 */
final class StaticTableWriterFactory implements StreamingDataWriterFactory {

  private static final long serialVersionUID = 1L;

  private final YtWriteSpec spec;
  private final String transactionId;
  private final boolean writes;
  private final long timeoutMillis;

  StaticTableWriterFactory(
      YtWriteSpec spec, TransactionId transaction, boolean writes, Duration timeout) {
    this.spec = spec;
    this.transactionId = transaction.value();
    this.writes = writes;
    this.timeoutMillis = timeout.toMillis();
  }

  @Override
  public DataWriter<InternalRow> createWriter(int partitionId, long taskId, long epochId) {
    return new StaticTableDataWriter(
        spec,
        new TransactionId(transactionId),
        partitionId,
        epochId,
        writes,
        Duration.ofMillis(timeoutMillis));
  }
}
