package io.ytstream.spark.writers;

import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.config.UserInputErrors;
import io.ytstream.spark.types.SparkToYt;
import io.ytstream.spark.types.ValueConverter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.ForeachWriter;
import org.apache.spark.sql.catalyst.CatalystTypeConverters;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * The executor side shared by ytstream's {@code ForeachWriter}s: connects in {@link #open} (nothing
 * but serializable configuration travels), buffers rows in a {@link BufferedTableWriter}, and
 * writes what is buffered in {@link #close} when the task (in Real-time Mode, the batch) ends
 * without error. The subclass checks the table and turns a Spark row into an output row.
 */
abstract class TableForeachWriter extends ForeachWriter<org.apache.spark.sql.Row> {

  private static final long serialVersionUID = 1L;

  final ForeachWriterConfig config;

  private transient YtCluster cluster;
  private transient BufferedTableWriter out;
  transient TableDescription table;
  transient Map<String, Column> columns;
  transient long partitionId;
  private transient Map<String, ValueConverter> converters;

  TableForeachWriter(ForeachWriterConfig config) {
    this.config = config;
  }

  /** Fails with a message saying what to change if the table cannot take this writer's rows. */
  abstract void checkTable(TableDescription table);

  /** The output row for one input row; called in row order within a task. */
  abstract Row toOutput(org.apache.spark.sql.Row row);

  /** Resets per-task state; called from {@link #open}. */
  void startTask() {}

  /** Describes and checks the output table on the driver, so a bad setup fails at build(). */
  static TableDescription describeAndCheck(ForeachWriterConfig config, TableForeachWriter writer) {
    try (YtCluster c = config.cluster.connect()) {
      TableDescription t;
      try {
        t = c.tableMetadata().describe(config.outputPath());
      } catch (RuntimeException e) {
        throw UserInputErrors.describeFailed(config.outputPath(), "output table (builder path)", e);
      }
      writer.checkTable(t);
      return t;
    }
  }

  @Override
  public boolean open(long partitionId, long epochId) {
    this.partitionId = partitionId;
    cluster = config.cluster.connect();
    try {
      table = cluster.tableMetadata().describe(config.outputPath());
    } catch (RuntimeException e) {
      cluster.close();
      throw UserInputErrors.describeFailed(config.outputPath(), "output table (builder path)", e);
    }
    checkTable(table);
    columns = new TreeMap<>();
    converters = new TreeMap<>();
    table.columns().forEach(c -> columns.put(c.name(), c));
    out =
        new BufferedTableWriter(
            cluster,
            config.outputPath(),
            table.sorted(),
            config.maxBufferedRows,
            config.flushIntervalMs);
    startTask();
    return true;
  }

  @Override
  public void process(org.apache.spark.sql.Row row) {
    out.add(toOutput(row));
  }

  @Override
  public void close(Throwable errorOrNull) {
    try {
      if (errorOrNull == null && out != null) {
        out.flush();
      }
    } finally {
      if (out != null) {
        out.close();
      }
      if (cluster != null) {
        cluster.close();
      }
      out = null;
      cluster = null;
    }
  }

  /** The row's fields as YTsaurus values, each a column of the table (or a clear error). */
  Map<String, Object> values(org.apache.spark.sql.Row row) {
    StructType schema = row.schema();
    Map<String, Object> values = new LinkedHashMap<>();
    for (int i = 0; i < schema.fields().length; i++) {
      String name = schema.fields()[i].name();
      Column c = columns.get(name);
      if (c == null) {
        throw new IllegalArgumentException(
            "column "
                + name
                + " of the query is not a column of "
                + config.path
                + " "
                + columns.keySet()
                + ": add it to the table or drop it from the query's select");
      }
      Object value = row.isNullAt(i) ? null : row.get(i);
      values.put(
          name, converter(name, c, schema.fields()[i].dataType()).convert(toCatalyst(value)));
    }
    return values;
  }

  /**
   * The sink's checked converter for a column (the same one {@code format("yt")} uses, with
   * write_type_v3 on: a struct goes into a struct column), built once per task and column.
   */
  private ValueConverter converter(String name, Column column, DataType sparkType) {
    ValueConverter known = converters.get(name);
    if (known == null) {
      known = SparkToYt.column(name, column.typeV3(), sparkType, true);
      converters.put(name, known);
    }
    return known;
  }

  /** A ForeachWriter gets external Java values; the sink's converters take Catalyst ones. */
  private static Object toCatalyst(Object value) {
    return value == null ? null : CatalystTypeConverters.convertToCatalyst(value);
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + config + "]";
  }
}
