package io.ytstream.application;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.ProducerSession;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.QueueProducers;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One task's rows on their way into a queue through producer sessions, one session per source
 * partition, each row numbered by its source row index (the producer {@code ForeachWriter}): the
 * server skips rows numbered at or below what a session holds, so a replayed or restarted task
 * writes nothing twice. The caller decides when to push (a full buffer, a flush interval, the end
 * of the task); this class decides what a push is.
 *
 * <ul>
 *   <li>The first row of a source partition creates its session, which fences every earlier writer
 *       of it (the server bumps its epoch); every push of this task goes with that epoch.
 *   <li>A push takes consecutive sequence numbers from a base, so the rows of one session go as one
 *       push per run of consecutive source row indexes (more than one when a filter leaves gaps),
 *       each through {@link PushThroughProducerSession}, each setting the session's user_meta to
 *       the source position of its last row.
 *   <li>Rows of a source partition must come in source order, one output row per source row: a row
 *       at or below the last one buffered fails the task with the fix named.
 * </ul>
 */
@DrivingUseCase
public final class PushRowsBySourcePosition {

  /** Hears what the pushes did, for the writer's log. */
  public interface Listener {
    /** A session was created (or taken over) for this task. */
    default void sessionOpened(ProducerSessionId session, long epoch, long sequenceNumber) {}

    /** A push's rows were, some or all, already in the session (a replay). */
    default void skipped(ProducerSessionId session, long skippedRows, long rows, long firstRow) {}

    Listener NONE = new Listener() {};
  }

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
  private final Listener listener;
  // Insertion order: sessions are pushed in the order their first rows came.
  private final Map<String, Session> sessions = new LinkedHashMap<>();
  private int buffered;
  private long pushedRows;
  private long skippedRows;

  /**
   * @param writer names the writer in its errors
   * @param sessionPrefix the writer's id (by default the query id), first part of each session id
   */
  public PushRowsBySourcePosition(
      String writer,
      QueueProducers producers,
      YPath producer,
      YPath queue,
      String sessionPrefix,
      Listener listener) {
    this.writer = Objects.requireNonNull(writer, "writer");
    this.producers = Objects.requireNonNull(producers, "producers");
    this.pushes = new PushThroughProducerSession(producers);
    this.producer = Objects.requireNonNull(producer, "producer");
    this.queue = Objects.requireNonNull(queue, "queue");
    this.sessionPrefix = Objects.requireNonNull(sessionPrefix, "sessionPrefix");
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  /** The session id of a source partition: the writer's id, the source queue, the tablet. */
  public static String sessionId(String prefix, String sourceQueue, long sourceTablet) {
    return prefix + ":" + sourceQueue + ":" + sourceTablet;
  }

  /**
   * Buffers one output row of the source row {@code (sourceQueue, sourceTablet, sourceRowIndex)};
   * the first row of a source partition creates its session.
   *
   * @return how many rows are buffered now
   * @throws IllegalStateException when the row is not after the last one of its source partition
   */
  public int add(String sourceQueue, long sourceTablet, long sourceRowIndex, Row row) {
    String id = sessionId(sessionPrefix, sourceQueue, sourceTablet);
    Session s = sessions.get(id);
    if (s == null) {
      ProducerSessionId sid = new ProducerSessionId(producer, queue, id);
      ProducerSession created = producers.createSession(sid);
      s = new Session(sid, sourceQueue, sourceTablet, created.epoch());
      sessions.put(id, s);
      listener.sessionOpened(sid, created.epoch(), created.sequenceNumber());
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
    return ++buffered;
  }

  /**
   * Pushes everything buffered, session by session.
   *
   * @throws ProducerFencedException when a newer writer created one of the sessions
   */
  public void pushAll() {
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

  /** Drops what is buffered (the task failed). */
  public void clear() {
    sessions.clear();
    buffered = 0;
  }

  /** Rows buffered and not pushed yet. */
  public int buffered() {
    return buffered;
  }

  /** Rows pushed so far by this task, skipped ones included. */
  public long pushedRowCount() {
    return pushedRows;
  }

  /** Rows the server skipped because their sessions already held them (a replay). */
  public long skippedRowCount() {
    return skippedRows;
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
      listener.skipped(s.id, outcome.skippedRowCount(), outcome.rowCount(), base);
    }
  }
}
