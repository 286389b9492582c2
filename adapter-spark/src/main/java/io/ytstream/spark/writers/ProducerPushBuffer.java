package io.ytstream.spark.writers;

import io.ytstream.application.Interruptions;
import io.ytstream.application.ProducerFencedException;
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
 * indexes) is {@link PushRowsBySourcePosition}'s; this class decides when. Rows are kept until
 * {@code maxRows} have gathered or the flush interval has passed (a daemon thread pushes what is
 * buffered every interval), and pushed under one lock, so a task's rows reach the queue in order.
 *
 * <p>A fenced push fails this task with {@link ProducerFencedException}, not retried. A failed
 * background push fails the next {@link #add} or {@link #flush}.
 */
final class ProducerPushBuffer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ProducerPushBuffer.class);

  private final String writer;
  private final YPath queue;
  private final int maxRows;
  private final PushRowsBySourcePosition rows;
  private final FlushTimer flusher;
  private volatile RuntimeException failure;

  ProducerPushBuffer(
      String writer,
      QueueProducers producers,
      YPath producer,
      YPath queue,
      String sessionPrefix,
      int maxRows,
      long flushIntervalMs) {
    this.writer = writer;
    this.queue = queue;
    this.maxRows = maxRows;
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
    rethrow();
    int buffered = rows.add(sourceQueue, sourceTablet, sourceRowIndex, row);
    if (flusher == null || buffered >= maxRows) {
      rows.pushAll();
    }
  }

  /** Pushes everything buffered; fails if this or an earlier background push failed. */
  synchronized void flush() {
    rethrow();
    rows.pushAll();
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
    if (failure != null || rows.buffered() == 0) {
      return;
    }
    try {
      rows.pushAll();
    } catch (RuntimeException e) {
      failure = e;
    }
  }

  private void rethrow() {
    RuntimeException f = failure;
    if (f == null) {
      return;
    }
    if (f instanceof ProducerFencedException || Interruptions.isInterruption(f)) {
      throw f;
    }
    throw new IllegalStateException(writer + ": pushing to " + queue + " failed: " + f, f);
  }

  /** Stops the background pushes; rows still buffered are dropped (the task failed). */
  @Override
  public void close() {
    if (flusher != null) {
      flusher.close();
    }
    synchronized (this) {
      rows.clear();
    }
  }
}
