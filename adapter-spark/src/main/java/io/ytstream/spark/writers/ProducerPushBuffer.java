package io.ytstream.spark.writers;

import io.ytstream.application.Interruptions;
import io.ytstream.application.ProducerFencedException;
import io.ytstream.application.ProducerPushOutcome;
import io.ytstream.application.PushThroughProducerSession;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.ProducerSession;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.QueueProducers;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task's rows on their way into a queue through producer sessions, one session per source
 * partition, each row numbered by its source row index. Rows are kept until {@code maxRows} have
 * gathered or the flush interval has passed (a daemon thread pushes what is buffered every
 * interval), then pushed session by session. The server skips rows numbered at or below what a
 * session holds, so a replayed or restarted task writes nothing twice.
 *
 * <p>A push takes consecutive sequence numbers from a base, so the rows of one session are pushed
 * as one push per run of consecutive source row indexes: one push per session for a query that
 * keeps every row, more when a filter leaves gaps. Each push sets the session's user_meta to the
 * source position of its last row.
 *
 * <p>Creating a session fences every earlier writer of it (the server bumps its epoch); a fenced
 * push fails this task with {@link ProducerFencedException}, not retried. A failed background push
 * fails the next {@link #add} or {@link #flush}.
 */
final class ProducerPushBuffer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ProducerPushBuffer.class);

  /** A source partition's session and the rows buffered for it, in source order. */
  private static final class Session {
    final ProducerSessionId id;
    final String sourceQueue;
    final long sourceTablet;
    final long epoch;
    long lastBufferedRowIndex = -1;
    final List<Long> rowIndexes = new ArrayList<>();
    final List<Row> rows = new ArrayList<>();

    Session(ProducerSessionId id, String sourceQueue, long sourceTablet, long epoch) {
      this.id = id;
      this.sourceQueue = sourceQueue;
      this.sourceTablet = sourceTablet;
      this.epoch = epoch;
    }
  }

  private final String writer;
  private final QueueProducers producers;
  private final PushThroughProducerSession pushes;
  private final YPath producer;
  private final YPath queue;
  private final String sessionPrefix;
  private final int maxRows;
  // Insertion order: sessions are pushed in the order their first rows came.
  private final Map<String, Session> sessions = new LinkedHashMap<>();
  private final FlushTimer flusher;
  private int buffered;
  private long pushedRows;
  private long skippedRows;
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
    this.producers = producers;
    this.pushes = new PushThroughProducerSession(producers);
    this.producer = producer;
    this.queue = queue;
    this.sessionPrefix = sessionPrefix;
    this.maxRows = maxRows;
    flusher =
        flushIntervalMs > 0
            ? new FlushTimer(
                flushIntervalMs, "ytstream-producer-flush " + queue, this::backgroundFlush)
            : null;
  }

  /** The session id of a source partition: the writer's id, the source queue, the tablet. */
  static String sessionId(String prefix, String sourceQueue, long sourceTablet) {
    return prefix + ":" + sourceQueue + ":" + sourceTablet;
  }

  /**
   * Buffers one output row of the source row {@code (sourceQueue, sourceTablet, sourceRowIndex)};
   * the first row of a source partition creates its session. With no flush interval, or a full
   * buffer, pushes at once.
   */
  synchronized void add(String sourceQueue, long sourceTablet, long sourceRowIndex, Row row) {
    rethrow();
    String id = sessionId(sessionPrefix, sourceQueue, sourceTablet);
    Session s = sessions.get(id);
    if (s == null) {
      ProducerSessionId sid = new ProducerSessionId(producer, queue, id);
      ProducerSession created = producers.createSession(sid);
      s = new Session(sid, sourceQueue, sourceTablet, created.epoch());
      sessions.put(id, s);
      LOG.info(
          "{}: {} at epoch {}, {} rows numbered up to {} already pushed",
          writer,
          sid,
          created.epoch(),
          created.sequenceNumber() + 1,
          created.sequenceNumber());
    }
    if (sourceRowIndex <= s.lastBufferedRowIndex) {
      throw new IllegalStateException(
          writer
              + ": source row "
              + sourceRowIndex
              + " of tablet "
              + sourceTablet
              + (sourceQueue.isEmpty() ? "" : " of " + sourceQueue)
              + " came after row "
              + s.lastBufferedRowIndex
              + "; this writer numbers each output row by its source row, so it takes one output"
              + " row per source row, in source order. Drop explode/flatMap and repartition from"
              + " the query, or use YtExactlyOnceForeachWriter with a key column that tells the"
              + " rows apart");
    }
    s.lastBufferedRowIndex = sourceRowIndex;
    s.rowIndexes.add(sourceRowIndex);
    s.rows.add(row);
    buffered++;
    if (flusher == null || buffered >= maxRows) {
      pushAll();
    }
  }

  /** Pushes everything buffered; fails if this or an earlier background push failed. */
  synchronized void flush() {
    rethrow();
    pushAll();
  }

  /** Rows pushed so far by this task, skipped ones included. */
  synchronized long pushedRowCount() {
    return pushedRows;
  }

  /** Rows the server skipped because their sessions already held them (a replay). */
  synchronized long skippedRowCount() {
    return skippedRows;
  }

  private synchronized void backgroundFlush() {
    if (failure != null || buffered == 0) {
      return;
    }
    try {
      pushAll();
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

  private void pushAll() {
    for (Session s : sessions.values()) {
      int from = 0;
      while (from < s.rows.size()) {
        int to = from + 1;
        while (to < s.rows.size() && s.rowIndexes.get(to) == s.rowIndexes.get(to - 1) + 1) {
          to++;
        }
        push(s, from, to);
        from = to;
      }
      s.rows.clear();
      s.rowIndexes.clear();
    }
    buffered = 0;
  }

  private void push(Session s, int from, int to) {
    long base = s.rowIndexes.get(from);
    long last = s.rowIndexes.get(to - 1);
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("source_queue", s.sourceQueue);
    meta.put("source_tablet_index", s.sourceTablet);
    meta.put("source_row_index", last);
    ProducerPushOutcome outcome;
    try {
      outcome =
          pushes.push(
              s.id, s.epoch, base, List.copyOf(s.rows.subList(from, to)), Optional.of(meta));
    } catch (ProducerFencedException e) {
      throw new ProducerFencedException(
          writer
              + ": another writer took over this session ("
              + s.id
              + "): it created the session after this writer got epoch "
              + s.epoch
              + ", so this writer stops and does not retry; nothing of its push of source rows "
              + base
              + ".."
              + last
              + " was written. This is a restarted or speculative task of the same query (the"
              + " newer one goes on), or a second query with the same writerId: give each query"
              + " its own writerId",
          e);
    }
    pushedRows += outcome.rowCount();
    skippedRows += outcome.skippedRowCount();
    if (outcome.skippedRowCount() > 0) {
      LOG.info(
          "{}: {} of {} rows (source rows {}..{}) were already in {} through {}; skipped by the"
              + " server",
          writer,
          outcome.skippedRowCount(),
          outcome.rowCount(),
          base,
          last,
          queue,
          s.id);
    }
  }

  /** Stops the background pushes; rows still buffered are dropped (the task failed). */
  @Override
  public void close() {
    if (flusher != null) {
      flusher.close();
    }
    synchronized (this) {
      sessions.clear();
      buffered = 0;
    }
  }
}
