package io.ytstream.spark.writers;

import io.ytstream.application.ServiceColumns;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableDescription.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@code ForeachWriter} that delivers every input row exactly once, in Real-time Mode or any
 * other trigger: it upserts into a sorted dynamic table keyed by the row's source position, so a
 * batch that Spark replays after a failure overwrites the same keys with the same values.
 *
 * <p>The stream must be read with {@code include_service_columns=true} and keep {@code
 * __spyt_streaming_src_tablet_index} and {@code __spyt_streaming_src_row_index}; both must be key
 * columns of the output table. The queue is part of the position too: when one stream reads several
 * queues its rows carry {@code __ytstream_src_queue} (the queue path), and the table needs that key
 * column, first. A table with that key column and a stream of one queue gets the queue path from
 * {@link Builder#sourceQueue}. More key columns are allowed (e.g. the position from {@code
 * posexplode}), so that several output rows of one input row have distinct keys; two consecutive
 * rows with the same key fail the task instead of overwriting each other.
 *
 * <pre>{@code
 * df.writeStream().foreach(YtExactlyOnceForeachWriter.builder()
 *         .path("//home/out").flushInterval(Duration.ofMillis(5)).build())
 *     .outputMode("update").trigger(Trigger.RealTime("5 minutes")).start();
 * }</pre>
 *
 * Rows are written at least every {@code flushInterval} (default 5 ms) or whenever {@code
 * maxBufferedRows} (default 1,000) have gathered, and when the task ends. The consumer is advanced
 * by the source at batch boundaries, as always.
 */
public final class YtExactlyOnceForeachWriter extends TableForeachWriter {

  private static final long serialVersionUID = 1L;

  static final String NAME = "YtExactlyOnceForeachWriter";

  private final String sourceQueue;

  private transient List<String> keyColumns;
  private transient boolean queueKey;
  private transient List<Object> lastKey;

  private YtExactlyOnceForeachWriter(ForeachWriterConfig config, String sourceQueue) {
    super(config);
    this.sourceQueue = sourceQueue;
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  void checkTable(TableDescription t) {
    if (!t.sorted()) {
      throw new IllegalArgumentException(
          NAME
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
            NAME
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

  @Override
  void startTask() {
    keyColumns = table.keyColumns().stream().map(Column::name).toList();
    queueKey = keyColumns.contains(ServiceColumns.QUEUE);
    lastKey = null;
  }

  @Override
  Row toOutput(org.apache.spark.sql.Row row) {
    boolean rowHasQueue = hasField(row, ServiceColumns.QUEUE);
    if (rowHasQueue && !queueKey) {
      throw new IllegalArgumentException(
          NAME
              + ": the stream reads several queues (its rows carry "
              + ServiceColumns.QUEUE
              + ") but "
              + config.path
              + " has no key column "
              + ServiceColumns.QUEUE
              + ": rows of different queues would overwrite each other. Add it to the key,"
              + " first");
    }
    Map<String, Object> values = values(row);
    if (queueKey && !rowHasQueue) {
      if (sourceQueue == null) {
        throw new IllegalArgumentException(
            NAME
                + ": "
                + config.path
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
            NAME
                + ": key column "
                + k
                + " of "
                + config.path
                + " is missing from the row: read the stream with"
                + " option(\"include_service_columns\", \"true\") and keep the service columns in"
                + " the select");
      }
      key.add(v);
    }
    if (key.equals(lastKey)) {
      throw new IllegalStateException(
          NAME
              + ": two consecutive rows have the same key "
              + key
              + " in "
              + config.path
              + "; they would overwrite each other. One input row became several (explode,"
              + " flatMap): add a key column that tells them apart (e.g. the position from"
              + " posexplode)");
    }
    lastKey = key;
    return Row.of(values);
  }

  private static boolean hasField(org.apache.spark.sql.Row row, String name) {
    for (String f : row.schema().fieldNames()) {
      if (f.equals(name)) {
        return true;
      }
    }
    return false;
  }

  /** Builds the writer on the driver; the output table is checked here. */
  public static final class Builder extends ForeachWriterBuilder<Builder> {
    private String sourceQueue;

    private Builder() {}

    @Override
    Builder self() {
      return this;
    }

    /** The queue path to key rows by when the stream reads one queue. */
    public Builder sourceQueue(String queue) {
      this.sourceQueue = queue;
      return this;
    }

    public YtExactlyOnceForeachWriter build() {
      ForeachWriterConfig config = resolve(NAME);
      YtExactlyOnceForeachWriter writer = new YtExactlyOnceForeachWriter(config, sourceQueue);
      describeAndCheck(config, writer);
      return writer;
    }
  }
}
