package io.ytstream.spark.sink;

import io.ytstream.ports.TransactionId;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.streaming.StreamingDataWriterFactory;

/**
 * The write plan shipped to executors: the output table, and in transactional mode the id of the
 * batch's transaction (the handle travels here, never in thread-local state), or in producer mode
 * the queue producer and the query id that name the tasks' sessions.
 */
final class YtDataWriterFactory implements DataWriterFactory, StreamingDataWriterFactory {

  private static final long serialVersionUID = 1L;

  /** Which writer the tasks get: one class per delivery guarantee. */
  private enum Writers {
    CHUNKED,
    TRANSACTIONAL,
    PRODUCER
  }

  private final Writers writers;
  private final YtWriteSpec spec;
  private final String transactionId;
  private final long epochId;
  private final long maxRowsPerTablet;
  private final ProducerTarget producer;

  private YtDataWriterFactory(
      Writers writers,
      YtWriteSpec spec,
      String transactionId,
      long epochId,
      long maxRowsPerTablet,
      ProducerTarget producer) {
    this.writers = writers;
    this.spec = spec;
    this.transactionId = transactionId;
    this.epochId = epochId;
    this.maxRowsPerTablet = maxRowsPerTablet;
    this.producer = producer;
  }

  /** Writers that flush their own chunks (at-least-once, idempotent receiver, static writes). */
  static YtDataWriterFactory outsideTransaction(YtWriteSpec spec) {
    return new YtDataWriterFactory(Writers.CHUNKED, spec, null, -1, Long.MAX_VALUE, null);
  }

  /** Writers that push each task's share of a batch through a producer session of its own. */
  static YtDataWriterFactory throughProducer(YtWriteSpec spec, ProducerTarget producer) {
    return new YtDataWriterFactory(
        Writers.PRODUCER, spec, null, -1, producer.maxRowsPerTablet(), producer);
  }

  /**
   * Writers that keep their rows for the batch transaction {@code transactionId}, which takes at
   * most {@code maxRowsPerTablet} rows per output tablet.
   */
  static YtDataWriterFactory inTransaction(
      YtWriteSpec spec, String transactionId, long maxRowsPerTablet) {
    return new YtDataWriterFactory(
        Writers.TRANSACTIONAL, spec, transactionId, -1, maxRowsPerTablet, null);
  }

  @Override
  public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
    return createWriter(partitionId, taskId, epochId);
  }

  @Override
  public DataWriter<InternalRow> createWriter(int partitionId, long taskId, long epochId) {
    return switch (writers) {
      case CHUNKED -> new ChunkedDataWriter(spec, partitionId, epochId);
      case TRANSACTIONAL ->
          new TransactionalDataWriter(
              spec, new TransactionId(transactionId), partitionId, epochId, maxRowsPerTablet);
      case PRODUCER -> new YtProducerDataWriter(spec, producer, partitionId, epochId);
    };
  }
}
