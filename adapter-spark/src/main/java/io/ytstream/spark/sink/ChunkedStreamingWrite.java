package io.ytstream.spark.sink;

import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.connector.write.streaming.StreamingDataWriterFactory;
import org.apache.spark.sql.connector.write.streaming.StreamingWrite;

/**
 * The driver side of the at-least-once and idempotent-receiver sinks: the writers flush their own
 * chunks ({@link io.ytstream.application.WriteChunk}), so there is nothing to commit on the driver;
 * the consumer moves in the source's commit, after Spark logged {@code commits/N}.
 */
final class ChunkedStreamingWrite implements StreamingWrite {

  private final YtWriteSpec spec;

  ChunkedStreamingWrite(YtWriteSpec spec) {
    this.spec = spec;
  }

  @Override
  public StreamingDataWriterFactory createStreamingWriterFactory(PhysicalWriteInfo info) {
    return YtDataWriterFactory.outsideTransaction(spec);
  }

  @Override
  public void commit(long epochId, WriterCommitMessage[] messages) {}

  @Override
  public void abort(long epochId, WriterCommitMessage[] messages) {}

  @Override
  public String toString() {
    return "ChunkedStreamingWrite[" + spec.path() + "]";
  }
}
