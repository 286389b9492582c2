package io.ytstream.spark;

import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription;
import java.time.Duration;
import java.util.Map;

/**
 * A {@code ForeachWriter} that appends rows to an ordered dynamic table, at least once: after a
 * failure Spark replays the batch from its start and rows written before the failure are written
 * again. Rows are spread over the table's tablets ({@code $tablet_index} = task number plus row
 * number, modulo the tablet count). Rows are written at least every {@code flushInterval} (default
 * 5 ms), whenever {@code maxBufferedRows} (default 1,000) have gathered, and when the task ends.
 *
 * <pre>{@code
 * df.writeStream().foreach(YtAppendForeachWriter.builder().path("//home/out").build())
 *     .outputMode("update").trigger(Trigger.RealTime("5 minutes")).start();
 * }</pre>
 */
public final class YtAppendForeachWriter extends TableForeachWriter {

  private static final long serialVersionUID = 1L;

  static final String NAME = "YtAppendForeachWriter";

  private transient long rowCount;

  private YtAppendForeachWriter(ForeachWriterConfig config) {
    super(config);
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  void checkTable(TableDescription t) {
    if (t.sorted()) {
      throw new IllegalArgumentException(
          NAME
              + ": "
              + t.path()
              + " is a sorted table; this writer appends to an ordered table. To upsert by source"
              + " position (exactly once) use YtExactlyOnceForeachWriter");
    }
  }

  @Override
  void startTask() {
    rowCount = 0;
  }

  @Override
  Row toOutput(org.apache.spark.sql.Row row) {
    Map<String, Object> values = values(row);
    values.put("$tablet_index", (partitionId + rowCount) % Math.max(1, table.tabletCount()));
    rowCount++;
    return Row.of(values);
  }

  /** Builds the writer on the driver; the output table is checked here. */
  public static final class Builder {
    private String proxy;
    private String token;
    private String path;
    private Duration flushInterval = Duration.ofMillis(5);
    private int maxBufferedRows = 1_000;

    private Builder() {}

    /** The cluster; defaults to the session's {@code spark.hadoop.yt.proxy}. */
    public Builder proxy(String proxy) {
      this.proxy = proxy;
      return this;
    }

    /** The token; defaults to the session's {@code spark.hadoop.yt.token}. Never logged. */
    public Builder token(String token) {
      this.token = token;
      return this;
    }

    /** The ordered output table. */
    public Builder path(String path) {
      this.path = path;
      return this;
    }

    /** Longest time a row waits in the writer (default 5 ms; 0 writes every row at once). */
    public Builder flushInterval(Duration interval) {
      this.flushInterval = interval;
      return this;
    }

    /** Most rows held before a write (default 1,000). */
    public Builder maxBufferedRows(int rows) {
      this.maxBufferedRows = rows;
      return this;
    }

    public YtAppendForeachWriter build() {
      ForeachWriterConfig config =
          ForeachWriterConfig.resolve(NAME, proxy, token, path, flushInterval, maxBufferedRows);
      YtAppendForeachWriter writer = new YtAppendForeachWriter(config);
      describeAndCheck(config, writer);
      return writer;
    }
  }
}
