package io.ytstream.spark.writers;

import io.ytstream.application.Interruptions;
import io.ytstream.application.WriteChunk;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import io.ytstream.ports.spi.YtCluster;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rows on their way to one dynamic table from one task: kept until {@code maxRows} have gathered or
 * the flush interval has passed (a daemon thread flushes what is buffered every interval), then
 * written as one chunk by {@link WriteChunk}, which decides what is retried. Writes happen under
 * one lock, so a task's rows reach the table in order. A failed background flush fails the next
 * {@link #add} or {@link #flush}, so the task fails and Spark replays the batch from its start.
 */
final class BufferedTableWriter implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(BufferedTableWriter.class);

  private final WriteChunk chunks;
  private final YPath path;
  private final boolean sorted;
  private final int maxRows;
  private final List<Row> buffer = new ArrayList<>();
  private final FlushTimer flusher;
  private volatile RuntimeException failure;

  BufferedTableWriter(
      YtCluster cluster, YPath path, boolean sorted, int maxRows, long flushIntervalMs) {
    this.chunks =
        new WriteChunk(
            cluster.outputTables(),
            (attempt, outcome, error) ->
                LOG.warn("writing rows to {} failed ({}), trying again", path, outcome));
    this.path = path;
    this.sorted = sorted;
    this.maxRows = maxRows;
    flusher =
        flushIntervalMs > 0
            ? new FlushTimer(flushIntervalMs, "ytstream-flush " + path, this::backgroundFlush)
            : null;
  }

  /** Buffers a row; with no flush interval, or a full buffer, writes at once. */
  synchronized void add(Row row) {
    rethrow();
    buffer.add(row);
    if (flusher == null || buffer.size() >= maxRows) {
      write();
    }
  }

  /** Writes everything buffered; fails if this or an earlier background write failed. */
  synchronized void flush() {
    rethrow();
    write();
  }

  private synchronized void backgroundFlush() {
    if (failure != null || buffer.isEmpty()) {
      return;
    }
    try {
      write();
    } catch (RuntimeException e) {
      failure = e;
    }
  }

  private void rethrow() {
    RuntimeException f = failure;
    if (f != null && Interruptions.isInterruption(f)) {
      throw f;
    }
    if (f != null) {
      throw new IllegalStateException("writing to " + path + " failed: " + f.getMessage(), f);
    }
  }

  private void write() {
    if (buffer.isEmpty()) {
      return;
    }
    List<Row> chunk = List.copyOf(buffer);
    buffer.clear();
    chunks.write(path, sorted, chunk);
  }

  /** Stops the background flushes; rows still buffered are dropped (the task failed). */
  @Override
  public void close() {
    if (flusher != null) {
      flusher.close();
    }
    synchronized (this) {
      buffer.clear();
    }
  }
}
