package io.ytstream.simulation;

import io.ytstream.application.ProtocolMutant;
import io.ytstream.application.PushThroughProducerSession;
import io.ytstream.ports.ProducerSession;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.QueueProducers;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One task attempt's pushes with the numbering the Real-time writer uses ({@code
 * YtProducerForeachWriter}): one session per source partition, created (which fences every earlier
 * writer of it) before the partition's first push; each row numbered by its source row index, so
 * one push per run of consecutive source rows; each push sets the session's user_meta to the source
 * position of its last row. Every push goes through the shipped {@link PushThroughProducerSession}.
 */
final class SourceRowPushes {

  /** The writer id the sessions are named after (the query id in Spark). */
  static final String WRITER = "sim-query";

  private final QueueProducers producers;
  private final PushThroughProducerSession pushes;
  private final Map<Integer, ProducerSession> opened = new TreeMap<>();

  SourceRowPushes(QueueProducers producers, ProtocolMutant mutant) {
    this.producers = producers;
    this.pushes = new PushThroughProducerSession(producers, mutant);
  }

  /** The session of one source partition: the writer, the source queue, the tablet. */
  static ProducerSessionId session(String queueKey, int tablet) {
    return new ProducerSessionId(
        Workload.PRODUCER, Workload.OUTPUT, WRITER + ":" + queueKey + ":" + tablet);
  }

  /**
   * Pushes the rows of one source partition (in source order, each with its source row index {@code
   * r}), one push per run of consecutive rows; {@code beforePush} runs before each push (a task may
   * fail there).
   */
  void pushPartition(
      int ordinal, String queueKey, int tablet, List<Row> rows, Runnable beforePush) {
    ProducerSessionId id = session(queueKey, tablet);
    ProducerSession s = opened.get(ordinal);
    if (s == null) {
      s = producers.createSession(id);
      opened.put(ordinal, s);
    }
    int from = 0;
    while (from < rows.size()) {
      int to = from + 1;
      while (to < rows.size() && rowIndex(rows.get(to)) == rowIndex(rows.get(to - 1)) + 1) {
        to++;
      }
      long base = rowIndex(rows.get(from));
      Map<String, Object> meta = new LinkedHashMap<>();
      meta.put("source_queue", queueKey);
      meta.put("source_tablet_index", (long) tablet);
      meta.put("source_row_index", rowIndex(rows.get(to - 1)));
      beforePush.run();
      pushes.push(id, s.epoch(), base, new ArrayList<>(rows.subList(from, to)), Optional.of(meta));
      from = to;
    }
  }

  private static long rowIndex(Row row) {
    return (Long) row.get("r");
  }
}
