package io.ytstream.spark.writers;

import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.config.UserInputErrors;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.ForeachWriter;

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
  transient long partitionId;
  private transient RowValues rowValues;

  TableForeachWriter(ForeachWriterConfig config) {
    this.config = config;
  }

  /** Fails with a message saying what to change if the table cannot take this writer's rows. */
  abstract void checkTable(TableDescription table);

  /** The output row for one input row; called in row order within a task. */
  abstract Row toOutput(org.apache.spark.sql.Row row);

  /** The query's columns the subclass reads itself and does not write as data. */
  Set<String> columnsNotWritten() {
    return Set.of();
  }

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
    rowValues =
        new RowValues(table, getClass().getSimpleName(), config.path, "table", columnsNotWritten());
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
    return rowValues.of(row);
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + config + "]";
  }
}
