package io.ytstream.spark.sink;

import io.ytstream.application.WriteChunk;
import io.ytstream.ports.Row;
import io.ytstream.ports.spi.YtCluster;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one task's rows outside a batch transaction (at-least-once, idempotent receiver, static
 * writes): in chunks of {@code spark.yt.write.dynBatchSize}, each chunk one tablet transaction of
 * its own ({@link WriteChunk}: appended to an ordered table, upserted into a sorted one).
 */
final class ChunkedDataWriter implements DataWriter<InternalRow> {

  private static final Logger LOG = LoggerFactory.getLogger(ChunkedDataWriter.class);

  private final YtWriteSpec spec;
  private final YtCluster cluster;
  private final WriteChunk chunks;
  private final SinkRows rows;
  private final int partitionId;
  private final long epochId;
  private final long[] rowsPerTablet;
  private final List<Row> buffer = new ArrayList<>();
  private long rowCount;

  ChunkedDataWriter(YtWriteSpec spec, int partitionId, long epochId) {
    this.spec = spec;
    this.cluster = spec.cluster().connect();
    // At-least-once: a retried unknown outcome may have landed, so the chunk may be written twice.
    this.chunks =
        new WriteChunk(
            cluster.outputTables(),
            (attempt, outcome, error) ->
                LOG.warn("writing rows to {} failed ({}), trying again", spec.path(), outcome));
    this.rows = new SinkRows(spec, partitionId);
    this.partitionId = partitionId;
    this.epochId = epochId;
    this.rowsPerTablet = rows.newTabletCounters();
  }

  @Override
  public void write(InternalRow record) {
    rowsPerTablet[rows.tabletOf(rowCount)]++;
    buffer.add(rows.toYtRow(record, rowCount));
    rowCount++;
    if (buffer.size() >= spec.dynBatchSize()) {
      flush();
    }
  }

  private void flush() {
    if (buffer.isEmpty()) {
      return;
    }
    List<Row> chunk = List.copyOf(buffer);
    buffer.clear();
    chunks.write(spec.path(), spec.sorted(), chunk);
  }

  @Override
  public WriterCommitMessage commit() {
    flush();
    return new YtCommitMessage(partitionId, epochId, null, rowsPerTablet, null);
  }

  @Override
  public void abort() {
    buffer.clear();
  }

  @Override
  public void close() {
    cluster.close();
  }
}
