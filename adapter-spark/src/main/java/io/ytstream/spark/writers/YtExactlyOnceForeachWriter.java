package io.ytstream.spark.writers;

import io.ytstream.application.ServiceColumns;
import io.ytstream.application.SourcePositionKeys;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableDescription.Column;

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

  private transient SourcePositionKeys keys;

  private YtExactlyOnceForeachWriter(ForeachWriterConfig config, String sourceQueue) {
    super(config);
    this.sourceQueue = sourceQueue;
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  void checkTable(TableDescription t) {
    SourcePositionKeys.checkTable(NAME, t);
  }

  @Override
  void startTask() {
    keys =
        new SourcePositionKeys(
            NAME, config.path, table.keyColumns().stream().map(Column::name).toList(), sourceQueue);
  }

  @Override
  Row toOutput(org.apache.spark.sql.Row row) {
    return keys.keyed(values(row), hasField(row, ServiceColumns.QUEUE));
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
