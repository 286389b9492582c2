package io.ytstream.simulation;

import io.ytstream.application.ForeachWriterBuffer;
import io.ytstream.application.TableChunkBuffer;
import io.ytstream.application.UpsertKeys;
import io.ytstream.application.WriteChunk;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.TableDescription;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One batch of the stateful query {@code groupBy(k).count()} in update output mode, as Spark's
 * Real-time Mode runs it behind a pipelined shuffle: each row a source task reads goes to the
 * shuffle partition of its key ({@code k mod partitions}), whose stateful task adds it to the
 * batch's working version of the state and hands the key's new count at once to its {@code
 * ForeachWriter}, the shipped {@code YtUpsertForeachWriter}: {@link UpsertKeys} over a {@link
 * TableChunkBuffer} upserting through {@link WriteChunk}, written when {@link ForeachWriterBuffer}
 * says. One stateful task per key keeps a key's writes in order. The working version starts from
 * the state the run restored and becomes durable only with the batch's commit ({@link
 * RealTimeDriver}).
 */
final class StatefulCount {

  /** The writer's name in errors, as the shipped writer gives it. */
  static final String WRITER = "YtUpsertForeachWriter";

  private final TreeMap<Long, Long> counts;
  private final List<Writer> writers = new ArrayList<>();

  /** One shuffle partition's writer: the shipped writer's buffer, chunks and keys. */
  private record Writer(ForeachWriterBuffer buffer, TableChunkBuffer rows, UpsertKeys keys) {}

  StatefulCount(
      RealTimeWorkload w, FaultyPorts io, TableDescription table, SortedMap<Long, Long> restored) {
    this.counts = new TreeMap<>(restored);
    // What YtUpsertForeachWriter.open and startTask do for each stateful task.
    UpsertKeys.checkTable(WRITER, table);
    List<String> keyColumns =
        table.keyColumns().stream().map(TableDescription.Column::name).toList();
    for (int p = 0; p < w.outputTablets(); p++) {
      TableChunkBuffer rows =
          new TableChunkBuffer(
              new WriteChunk(io, WriteChunk.RetryListener.NONE), Workload.OUTPUT, true);
      writers.add(
          new Writer(
              new ForeachWriterBuffer(
                  rows, w.maxBufferedRows(), w.flushEverySteps() != 0, "writing"),
              rows,
              new UpsertKeys(WRITER, Workload.OUTPUT.value(), keyColumns)));
    }
  }

  /** A source task read {@code row}: its key's count goes up by one and is written out. */
  void process(QueueRow row) {
    long key = (Long) row.data().get("k");
    long count = counts.merge(key, 1L, Long::sum);
    Writer writer = writers.get((int) (key % writers.size()));
    Map<String, Object> values = new TreeMap<>(Map.of("k", key, "count", count));
    writer.buffer().add(() -> writer.rows().add(writer.keys().keyed(values)));
  }

  /** The writers' flush timers tick. */
  void timer() {
    for (Writer writer : writers) {
      writer.buffer().timerFlush();
    }
  }

  /** The batch's deadline: each stateful task's {@code close(null)} writes what it buffered. */
  void close() {
    for (Writer writer : writers) {
      try {
        writer.buffer().flush();
      } finally {
        writer.buffer().drop();
      }
    }
  }

  /** A task failed: the batch fails, and what the writers buffered is dropped. */
  void drop() {
    writers.forEach(writer -> writer.buffer().drop());
  }

  /** The working version: the restored state plus this batch's rows. */
  SortedMap<Long, Long> counts() {
    return counts;
  }
}
