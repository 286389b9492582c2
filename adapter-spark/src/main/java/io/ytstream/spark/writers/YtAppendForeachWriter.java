package io.ytstream.spark.writers;

import io.ytstream.core.delivery.ChosenOutputTablet;
import io.ytstream.core.delivery.OutputTablets;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.types.StructType;

/**
 * A {@code ForeachWriter} that appends rows to an ordered dynamic table, at least once: after a
 * failure Spark replays the batch from its start and rows written before the failure are written
 * again. Rows are spread over the table's tablets ({@code $tablet_index} = task number plus row
 * number, modulo the tablet count), unless the job chooses each row's tablet: a {@code
 * $tablet_index} column of the query names it, or the builder's {@code outputTabletKey} columns are
 * hashed onto the tablets ({@link ChosenOutputTablet}), so one key's rows keep their order in one
 * tablet. A row whose tablet is refused fails the task; rows flushed before it stay written. Rows
 * are written at least every {@code flushInterval} (default 5 ms), whenever {@code maxBufferedRows}
 * (default 1,000) have gathered, and when the task ends.
 *
 * <pre>{@code
 * df.writeStream().foreach(YtAppendForeachWriter.builder().path("//home/out").build())
 *     .outputMode("update").trigger(Trigger.RealTime("5 minutes")).start();
 * }</pre>
 */
public final class YtAppendForeachWriter extends TableForeachWriter {

  private static final long serialVersionUID = 1L;

  static final String NAME = "YtAppendForeachWriter";

  private static final String TABLET_INDEX = "$tablet_index";

  /** The columns hashed onto the output's tablets; empty for round-robin. */
  private final ArrayList<String> tabletKey;

  private transient long rowCount;
  private transient StructType planned;
  private transient int tabletIndexField;

  private YtAppendForeachWriter(ForeachWriterConfig config, List<String> tabletKey) {
    super(config);
    this.tabletKey = new ArrayList<>(tabletKey);
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
    planned = null;
  }

  @Override
  Set<String> columnsNotWritten() {
    return Set.of(TABLET_INDEX);
  }

  @Override
  @SuppressWarnings("ReferenceEquality") // the same schema object first, before comparing fields
  Row toOutput(org.apache.spark.sql.Row row) {
    StructType schema = row.schema();
    if (schema != planned && !schema.equals(planned)) {
      planned = schema;
      tabletIndexField = List.of(schema.fieldNames()).indexOf(TABLET_INDEX);
      if (tabletIndexField >= 0 && !tabletKey.isEmpty()) {
        throw new IllegalArgumentException(
            NAME
                + ": the query has column "
                + TABLET_INDEX
                + " and outputTabletKey "
                + tabletKey
                + " is set: both choose the output tablet. Keep one");
      }
    }
    Map<String, Object> values = values(row);
    int tablets = Math.max(1, table.tabletCount());
    int tablet;
    try {
      if (tabletIndexField >= 0) {
        Object raw = row.isNullAt(tabletIndexField) ? null : row.get(tabletIndexField);
        tablet = ChosenOutputTablet.named(TABLET_INDEX, raw, tablets);
      } else if (!tabletKey.isEmpty()) {
        List<Object> key = new ArrayList<>(tabletKey.size());
        for (String column : tabletKey) {
          if (!values.containsKey(column)) {
            throw new IllegalArgumentException(
                "outputTabletKey column "
                    + column
                    + " is not among the query's written columns "
                    + values.keySet());
          }
          key.add(values.get(column));
        }
        tablet = ChosenOutputTablet.byKey(tabletKey, key, tablets);
      } else {
        tablet = OutputTablets.forRow(partitionId, rowCount, tablets);
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          NAME + " writing to " + config.path + ": " + e.getMessage(), e);
    }
    values.put(TABLET_INDEX, (long) tablet);
    rowCount++;
    return Row.of(values);
  }

  /** Builds the writer on the driver; the output table is checked here. */
  public static final class Builder extends ForeachWriterBuilder<Builder> {

    private final List<String> tabletKey = new ArrayList<>();

    private Builder() {}

    /**
     * Hashes these columns' values onto the output's tablets, so every row of one key lands in one
     * tablet, in order (the same hash as option {@code output_tablet_key} of {@code format("yt")}).
     * Without it, and without a {@code $tablet_index} column, rows go round-robin.
     */
    public Builder outputTabletKey(String... columns) {
      tabletKey.clear();
      for (String c : columns) {
        if (c == null || c.isBlank() || tabletKey.contains(c)) {
          throw new IllegalArgumentException(
              NAME
                  + ": outputTabletKey takes the query's columns, each once and not blank; got "
                  + Arrays.toString(columns));
        }
        tabletKey.add(c);
      }
      return this;
    }

    @Override
    Builder self() {
      return this;
    }

    public YtAppendForeachWriter build() {
      ForeachWriterConfig config = resolve(NAME);
      YtAppendForeachWriter writer = new YtAppendForeachWriter(config, tabletKey);
      describeAndCheck(config, writer);
      return writer;
    }
  }
}
