package io.ytstream.spark.writers;

import io.ytstream.application.ForeachWriterBuffer;
import io.ytstream.application.TableChunkBuffer;
import io.ytstream.application.WriteChunk;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import io.ytstream.ports.spi.YtCluster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rows on their way to one dynamic table from one task: a {@link TableChunkBuffer} written when
 * {@link ForeachWriterBuffer} says (full, or each flush interval, on a daemon thread of its own).
 * Every call holds this object's lock, so a task's rows reach the table in order.
 */
final class BufferedTableWriter implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(BufferedTableWriter.class);

  private final TableChunkBuffer rows;
  private final ForeachWriterBuffer buffer;
  private final FlushTimer flusher;

  BufferedTableWriter(
      YtCluster cluster, YPath path, boolean sorted, int maxRows, long flushIntervalMs) {
    WriteChunk chunks =
        new WriteChunk(
            cluster.outputTables(),
            (attempt, outcome, error) ->
                LOG.warn("writing rows to {} failed ({}), trying again", path, outcome));
    this.rows = new TableChunkBuffer(chunks, path, sorted);
    this.buffer = new ForeachWriterBuffer(rows, maxRows, flushIntervalMs > 0, "writing to " + path);
    flusher =
        flushIntervalMs > 0
            ? new FlushTimer(flushIntervalMs, "ytstream-flush " + path, this::backgroundFlush)
            : null;
  }

  /** Buffers a row; with no flush interval, or a full buffer, writes at once. */
  synchronized void add(Row row) {
    buffer.add(() -> rows.add(row));
  }

  /** Writes everything buffered; fails if this or an earlier background write failed. */
  synchronized void flush() {
    buffer.flush();
  }

  private synchronized void backgroundFlush() {
    buffer.timerFlush();
  }

  /** Stops the background flushes; rows still buffered are dropped (the task failed). */
  @Override
  public void close() {
    if (flusher != null) {
      flusher.close();
    }
    synchronized (this) {
      buffer.drop();
    }
  }
}
