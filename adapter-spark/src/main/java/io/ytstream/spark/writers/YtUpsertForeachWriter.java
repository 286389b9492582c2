package io.ytstream.spark.writers;

import io.ytstream.application.UpsertKeys;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableDescription.Column;
import java.util.Arrays;
import org.apache.spark.sql.types.StructType;

/**
 * A {@code ForeachWriter} for stateful queries (aggregations, {@code transformWithState} output):
 * each row is upserted into a sorted dynamic table by the table's own key, so the table holds the
 * latest row of each key. An upsert by key is idempotent: a batch Spark replays after a failure or
 * a restart writes the same keys again and the table converges to the same rows.
 *
 * <p>What a reader sees while the query recovers: Spark restarts a stateful query from its last
 * checkpointed state and replays the source from there, so a key's row can go back to the value it
 * had at that checkpoint (a count drops) and then climb again to where it was and beyond. Rows are
 * never lost nor counted twice once the replay has caught up. YTsaurus has no conditional upsert,
 * so this writer cannot refuse an older value; a reader that must never see a value go back needs a
 * version of its own in the rows (e.g. {@code max(event_time)} in the aggregate) and ignores a row
 * whose version is lower than one it has seen.
 *
 * <pre>{@code
 * counts.writeStream().foreach(YtUpsertForeachWriter.builder()
 *         .path("//home/counts").rowSchema(counts.schema()).build())
 *     .outputMode("update").trigger(Trigger.RealTime("5 minutes")).start();
 * }</pre>
 *
 * The table must be sorted and the query's rows must carry every key column; {@code build()} checks
 * both (the columns when {@link Builder#rowSchema} is given), and each task checks its first row.
 * Rows are written at least every {@code flushInterval} (default 5 ms) or whenever {@code
 * maxBufferedRows} (default 1,000) have gathered, and when the task ends.
 */
public final class YtUpsertForeachWriter extends TableForeachWriter {

  private static final long serialVersionUID = 1L;

  static final String NAME = "YtUpsertForeachWriter";

  private transient UpsertKeys keys;

  private YtUpsertForeachWriter(ForeachWriterConfig config) {
    super(config);
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  void checkTable(TableDescription t) {
    UpsertKeys.checkTable(NAME, t);
  }

  @Override
  void startTask() {
    keys =
        new UpsertKeys(NAME, config.path, table.keyColumns().stream().map(Column::name).toList());
  }

  @Override
  Row toOutput(org.apache.spark.sql.Row row) {
    return keys.keyed(values(row));
  }

  /** Builds the writer on the driver; the output table (and the query's columns) checked here. */
  public static final class Builder extends ForeachWriterBuilder<Builder> {
    private StructType rowSchema;

    private Builder() {}

    @Override
    Builder self() {
      return this;
    }

    /** The query's output schema ({@code df.schema()}), to check its key columns at build(). */
    public Builder rowSchema(StructType schema) {
      this.rowSchema = schema;
      return this;
    }

    public YtUpsertForeachWriter build() {
      ForeachWriterConfig config = resolve(NAME);
      YtUpsertForeachWriter writer = new YtUpsertForeachWriter(config);
      TableDescription table = describeAndCheck(config, writer);
      if (rowSchema != null) {
        UpsertKeys.checkColumns(NAME, table, Arrays.asList(rowSchema.fieldNames()));
      }
      return writer;
    }
  }
}
