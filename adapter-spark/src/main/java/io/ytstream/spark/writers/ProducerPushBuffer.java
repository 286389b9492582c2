package io.ytstream.spark.writers;

import io.ytstream.application.ForeachWriterBuffer;
import io.ytstream.application.PushRowsBySourcePosition;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.QueueProducers;
import io.ytstream.ports.Row;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task's rows on their way into a queue through producer sessions: what a push is (a session
 * per source partition, rows numbered by their source row index, one push per run of consecutive
 * indexes) is {@link PushRowsBySourcePosition}'s, and when is {@link ForeachWriterBuffer}'s (full,
 * or each flush interval, on a daemon thread of its own). Every call holds this object's lock, so a
 * task's rows reach the queue in order. A fenced push fails the task with {@code
 * ProducerFencedException}, not retried.
 */
final class ProducerPushBuffer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ProducerPushBuffer.class);

  private final PushRowsBySourcePosition rows;
  private final ForeachWriterBuffer buffer;
  private final FlushTimer flusher;

  ProducerPushBuffer(
      String writer,
      QueueProducers producers,
      YPath producer,
      YPath queue,
      String sessionPrefix,
      int maxRows,
      long flushIntervalMs) {
    this.rows =
        new PushRowsBySourcePosition(
            writer,
            producers,
            producer,
            queue,
            sessionPrefix,
            new PushRowsBySourcePosition.Listener() {
              @Override
              public void sessionOpened(ProducerSessionId session, long epoch, long seq) {
                LOG.info(
                    "{}: {} at epoch {}, {} rows numbered up to {} already pushed",
                    writer,
                    session,
                    epoch,
                    seq + 1,
                    seq);
              }

              @Override
              public void skipped(ProducerSessionId session, long skipped, long n, long first) {
                LOG.info(
                    "{}: {} of {} rows (source rows from {}) were already in {} through {};"
                        + " skipped by the server",
                    writer,
                    skipped,
                    n,
                    first,
                    queue,
                    session);
              }
            });
    this.buffer =
        new ForeachWriterBuffer(
            ForeachWriterBuffer.pushing(rows),
            maxRows,
            flushIntervalMs > 0,
            writer + ": pushing to " + queue);
    flusher =
        flushIntervalMs > 0
            ? new FlushTimer(
                flushIntervalMs, "ytstream-producer-flush " + queue, this::backgroundFlush)
            : null;
  }

  /** The session id of a source partition: the writer's id, the source queue, the tablet. */
  static String sessionId(String prefix, String sourceQueue, long sourceTablet) {
    return PushRowsBySourcePosition.sessionId(prefix, sourceQueue, sourceTablet);
  }

  /**
   * Buffers one output row of the source row {@code (sourceQueue, sourceTablet, sourceRowIndex)};
   * with no flush interval, or a full buffer, pushes at once.
   */
  synchronized void add(String sourceQueue, long sourceTablet, long sourceRowIndex, Row row) {
    buffer.add(() -> rows.add(sourceQueue, sourceTablet, sourceRowIndex, row));
  }

  /** Pushes everything buffered; fails if this or an earlier background push failed. */
  synchronized void flush() {
    buffer.flush();
  }

  /** Rows pushed so far by this task, skipped ones included. */
  synchronized long pushedRowCount() {
    return rows.pushedRowCount();
  }

  /** Rows the server skipped because their sessions already held them (a replay). */
  synchronized long skippedRowCount() {
    return rows.skippedRowCount();
  }

  private synchronized void backgroundFlush() {
    buffer.timerFlush();
  }

  /** Stops the background pushes; rows still buffered are dropped (the task failed). */
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
