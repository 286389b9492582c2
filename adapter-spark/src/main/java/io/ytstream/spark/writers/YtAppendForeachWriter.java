package io.ytstream.spark.writers;

import io.ytstream.core.delivery.OutputTablets;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription;
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
    values.put(
        "$tablet_index",
        (long) OutputTablets.forRow(partitionId, rowCount, Math.max(1, table.tabletCount())));
    rowCount++;
    return Row.of(values);
  }

  /** Builds the writer on the driver; the output table is checked here. */
  public static final class Builder extends ForeachWriterBuilder<Builder> {

    private Builder() {}

    @Override
    Builder self() {
      return this;
    }

    public YtAppendForeachWriter build() {
      ForeachWriterConfig config = resolve(NAME);
      YtAppendForeachWriter writer = new YtAppendForeachWriter(config);
      describeAndCheck(config, writer);
      return writer;
    }
  }
}
