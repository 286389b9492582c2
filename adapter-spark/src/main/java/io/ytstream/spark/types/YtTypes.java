package io.ytstream.spark.types;

import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableDescription.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The columns of a table as the source and sink see them: data columns, and the system columns a
 * queue declares. How each type maps to Spark is {@link YtToSpark} (read) and {@link SparkToYt}
 * (write); the table is in {@code docs/types.md}.
 */
public final class YtTypes {

  /** The system columns a queue may declare, in the order the source adds them. */
  public static final List<String> SYSTEM_COLUMNS =
      List.of(ColumnSpec.TIMESTAMP, ColumnSpec.CUMULATIVE_DATA_WEIGHT);

  private YtTypes() {}

  /** The data columns of a table (system columns such as {@code $timestamp} left out). */
  public static List<Column> dataColumns(TableDescription table) {
    List<Column> out = new ArrayList<>();
    for (Column c : table.columns()) {
      if (!c.name().startsWith("$")) {
        out.add(c);
      }
    }
    return out;
  }

  /**
   * {@code $timestamp} and {@code $cumulative_data_weight} when every queue read declares them
   * (with {@code include_service_columns}, the source adds them as long columns).
   */
  public static List<ColumnSpec> systemColumns(List<TableDescription> queues) {
    List<ColumnSpec> out = new ArrayList<>();
    for (String name : SYSTEM_COLUMNS) {
      Optional<Column> first = Optional.empty();
      boolean everywhere = !queues.isEmpty();
      for (TableDescription q : queues) {
        Optional<Column> c = q.columns().stream().filter(x -> x.name().equals(name)).findFirst();
        everywhere &= c.isPresent();
        if (first.isEmpty()) {
          first = c;
        }
      }
      if (everywhere) {
        out.add(ColumnSpec.systemColumn(name, first.orElseThrow().typeV3()));
      }
    }
    return out;
  }
}
