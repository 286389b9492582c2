package io.ytstream.spark.sink;

import io.ytstream.application.ChunkedTaskWriter;
import io.ytstream.application.WriteChunk;
import io.ytstream.ports.spi.YtCluster;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spark's writer of one task's rows outside a batch transaction (at-least-once, idempotent
 * receiver, static writes): each callback is one call of {@link ChunkedTaskWriter} (chunks of
 * {@code spark.yt.write.dynBatchSize}, each one tablet transaction of its own), rows converted by
 * type.
 */
final class ChunkedDataWriter implements DataWriter<InternalRow> {

  private static final Logger LOG = LoggerFactory.getLogger(ChunkedDataWriter.class);

  private final YtCluster cluster;
  private final SinkRows rows;
  private final ChunkedTaskWriter writer;
  private final int partitionId;
  private final long epochId;

  ChunkedDataWriter(YtWriteSpec spec, int partitionId, long epochId) {
    this.cluster = spec.cluster().connect();
    // At-least-once: a retried unknown outcome may have landed, so the chunk may be written twice.
    WriteChunk chunks =
        new WriteChunk(
            cluster.outputTables(),
            (attempt, outcome, error) ->
                LOG.warn("writing rows to {} failed ({}), trying again", spec.path(), outcome));
    this.rows = new SinkRows(spec, partitionId);
    this.writer =
        new ChunkedTaskWriter(
            chunks,
            spec.path(),
            spec.sorted(),
            partitionId,
            spec.tabletCount(),
            Math.max(1, spec.dynBatchSize()));
    this.partitionId = partitionId;
    this.epochId = epochId;
  }

  @Override
  public void write(InternalRow record) {
    writer.write(rows.chosenTablet(record), tablet -> rows.toYtRow(record, tablet));
  }

  @Override
  public WriterCommitMessage commit() {
    writer.commit();
    return new YtCommitMessage(partitionId, epochId, null, writer.rowsPerTablet(), null);
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
