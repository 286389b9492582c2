package io.ytstream.spark.sink;

import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * A static write ({@code df.write.format("yt").mode("append").save(path)}, also inside {@code
 * foreachBatch}): each task flushes chunks of {@code dynBatchSize} rows, each in its own tablet
 * transaction.
 */
final class YtBatchWrite implements BatchWrite {

  private final YtWriteSpec spec;

  YtBatchWrite(YtWriteSpec spec) {
    this.spec = spec;
  }

  @Override
  public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
    return YtDataWriterFactory.outsideTransaction(spec);
  }

  @Override
  public void commit(WriterCommitMessage[] messages) {}

  @Override
  public void abort(WriterCommitMessage[] messages) {}
}
