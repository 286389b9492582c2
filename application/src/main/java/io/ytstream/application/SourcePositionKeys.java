package io.ytstream.application;

import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableDescription.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The exactly-once {@code ForeachWriter}'s keys: each output row is upserted into a sorted table
 * keyed by its source position (queue, partition, row index), so a batch replayed after a failure
 * overwrites the same keys with the same values. This class checks the table ({@link #checkTable})
 * and makes each row's output ({@link #keyed}): the queue column filled in when the stream reads
 * one queue, every key column present, and two consecutive rows of a task never on one key (one
 * input row that became several would overwrite itself).
 */
@DrivingUseCase
public final class SourcePositionKeys {

  private final String writer;
  private final String table;
  private final List<String> keyColumns;
  private final boolean queueKey;
  private final String sourceQueue;
  private List<Object> lastKey;

  /**
   * One task's keys.
   *
   * @param writer the writer's name, for errors
   * @param table the output table as the user named it, for errors
   * @param keyColumns the output table's key columns, in order
   * @param sourceQueue the queue to key rows by when they do not carry one (the stream reads one
   *     queue), or null
   */
  public SourcePositionKeys(
      String writer, String table, List<String> keyColumns, String sourceQueue) {
    this.writer = Objects.requireNonNull(writer, "writer");
    this.table = Objects.requireNonNull(table, "table");
    this.keyColumns = List.copyOf(keyColumns);
    this.queueKey = keyColumns.contains(ServiceColumns.QUEUE);
    this.sourceQueue = sourceQueue;
  }

  /** Fails, saying what to change, unless {@code t} is a sorted table keyed by source position. */
  public static void checkTable(String writer, TableDescription t) {
    if (!t.sorted()) {
      throw new IllegalArgumentException(
          writer
              + ": "
              + t.path()
              + " is an ordered table; this writer upserts by source position into a sorted"
              + " table with key columns ["
              + ServiceColumns.TABLET_INDEX
              + ", "
              + ServiceColumns.ROW_INDEX
              + "] (and "
              + ServiceColumns.QUEUE
              + " first when reading several queues). To append to an ordered table use"
              + " YtAppendForeachWriter (at least once)");
    }
    List<String> keys = t.keyColumns().stream().map(Column::name).toList();
    for (String needed : List.of(ServiceColumns.TABLET_INDEX, ServiceColumns.ROW_INDEX)) {
      if (!keys.contains(needed)) {
        throw new IllegalArgumentException(
            writer
                + ": "
                + t.path()
                + " has key columns "
                + keys
                + " but needs "
                + needed
                + " in its key: replays overwrite rows only when the key is the source"
                + " position");
      }
    }
  }

  /**
   * The output row of the task's next input row, whose values are {@code values} (by column; the
   * map is filled in and kept). {@code rowHasQueue}: the input row carries the queue column (the
   * stream reads several queues).
   */
  public Row keyed(Map<String, Object> values, boolean rowHasQueue) {
    if (rowHasQueue && !queueKey) {
      throw new IllegalArgumentException(
          writer
              + ": the stream reads several queues (its rows carry "
              + ServiceColumns.QUEUE
              + ") but "
              + table
              + " has no key column "
              + ServiceColumns.QUEUE
              + ": rows of different queues would overwrite each other. Add it to the key,"
              + " first");
    }
    if (queueKey && !rowHasQueue) {
      if (sourceQueue == null) {
        throw new IllegalArgumentException(
            writer
                + ": "
                + table
                + " has key column "
                + ServiceColumns.QUEUE
                + " but the rows do not carry it (the stream reads one queue): call"
                + " sourceQueue(\"//path/of/queue\") on the builder");
      }
      values.put(ServiceColumns.QUEUE, sourceQueue);
    }
    List<Object> key = new ArrayList<>(keyColumns.size());
    for (String k : keyColumns) {
      Object v = values.get(k);
      if (v == null) {
        throw new IllegalArgumentException(
            writer
                + ": key column "
                + k
                + " of "
                + table
                + " is missing from the row: read the stream with"
                + " option(\"include_service_columns\", \"true\") and keep the service columns in"
                + " the select");
      }
      key.add(v);
    }
    if (key.equals(lastKey)) {
      throw new IllegalStateException(
          writer
              + ": two consecutive rows have the same key "
              + key
              + " in "
              + table
              + "; they would overwrite each other. One input row became several (explode,"
              + " flatMap): add a key column that tells them apart (e.g. the position from"
              + " posexplode)");
    }
    lastKey = key;
    return Row.of(values);
  }
}
