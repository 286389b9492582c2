package io.ytstream.spark.sink;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.config.ClusterRef;
import io.ytstream.spark.types.ColumnSpec;
import io.ytstream.spark.types.SparkToYt;
import io.ytstream.spark.types.ValueConverter;
import io.ytstream.spark.types.YtTypes;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The output table as writers need it on executors, checked against the DataFrame's schema before
 * the first batch: every DataFrame column exists in the table with a compatible type, every
 * required table column and every key column is written.
 */
public final class YtWriteSpec implements Serializable {

  private static final long serialVersionUID = 1L;

  private final ClusterRef cluster;
  private final String path;
  private final boolean sorted;
  private final int tabletCount;
  private final ArrayList<ColumnSpec> columns;
  private final int dynBatchSize;

  /** A static table: rows appended in master transactions, with no {@code $tablet_index}. */
  private boolean staticTable;

  private YtWriteSpec(
      ClusterRef cluster,
      String path,
      boolean sorted,
      int tabletCount,
      List<ColumnSpec> columns,
      int dynBatchSize) {
    this.cluster = cluster;
    this.path = path;
    this.sorted = sorted;
    this.tabletCount = tabletCount;
    this.columns = new ArrayList<>(columns);
    this.dynBatchSize = dynBatchSize;
  }

  public static YtWriteSpec check(
      ClusterRef cluster,
      TableDescription table,
      StructType schema,
      int dynBatchSize,
      boolean writeTypeV3) {
    YPath path = table.path();
    List<ColumnSpec> columns = new ArrayList<>();
    List<String> names = new ArrayList<>();
    YtTypes.dataColumns(table).forEach(c -> names.add(c.name()));
    for (StructField field : schema.fields()) {
      Optional<Column> column =
          YtTypes.dataColumns(table).stream()
              .filter(c -> c.name().equals(field.name()))
              .findFirst();
      if (column.isEmpty() && YtTypes.SYSTEM_COLUMNS.contains(field.name())) {
        columns.add(ColumnSpec.notWritten(field.name(), field.dataType()));
        continue;
      }
      if (column.isEmpty()) {
        Optional<Column> caseless =
            YtTypes.dataColumns(table).stream()
                .filter(c -> c.name().equalsIgnoreCase(field.name()))
                .findFirst();
        throw new IllegalArgumentException(
            "schema mismatch: the DataFrame has column '"
                + field.name()
                + "', which "
                + path
                + " does not have"
                + caseless.map(c -> " (did you mean '" + c.name() + "'?)").orElse("")
                + ". Columns of "
                + path
                + ": "
                + names
                + ". Select or rename the DataFrame's columns to match, or add the column to the"
                + " table");
      }
      Column c = column.get();
      ValueConverter toYt;
      try {
        toYt = SparkToYt.column(field.name(), c.typeV3(), field.dataType(), writeTypeV3);
      } catch (SparkToYt.Mismatch e) {
        throw new IllegalArgumentException(
            "schema mismatch: column '"
                + field.name()
                + "' is "
                + field.dataType().simpleString()
                + " in the DataFrame but "
                + SparkToYt.columnTypeName(c.typeV3())
                + " in "
                + path
                + " ("
                + e.getMessage()
                + "). To fix: "
                + e.fix()
                + ", or change the table's schema",
            e);
      }
      columns.add(ColumnSpec.forWrite(field.name(), field.dataType(), c.typeV3(), toYt));
    }
    for (Column c : YtTypes.dataColumns(table)) {
      boolean written = columns.stream().anyMatch(w -> w.name().equals(c.name()));
      if (!written && (c.required() || c.key())) {
        throw new IllegalArgumentException(
            "schema mismatch: column '"
                + c.name()
                + "' of "
                + path
                + " is "
                + (c.key() ? "a key column" : "required")
                + " but the DataFrame has no such column (DataFrame columns: "
                + List.of(schema.fieldNames())
                + ")");
      }
    }
    return new YtWriteSpec(
        cluster,
        path.value(),
        table.sorted(),
        Math.max(1, table.tabletCount()),
        columns,
        dynBatchSize);
  }

  /**
   * The spec of a static output table ({@code @dynamic=%false}), checked as a dynamic table's is
   * (columns and types); {@code table} holds its schema's columns.
   */
  public static YtWriteSpec checkStatic(
      ClusterRef cluster,
      TableDescription table,
      StructType schema,
      int dynBatchSize,
      boolean writeTypeV3) {
    YtWriteSpec spec = check(cluster, table, schema, dynBatchSize, writeTypeV3);
    spec.staticTable = true;
    return spec;
  }

  boolean staticTable() {
    return staticTable;
  }

  ClusterRef cluster() {
    return cluster;
  }

  YPath path() {
    return YPath.of(path);
  }

  boolean sorted() {
    return sorted;
  }

  int tabletCount() {
    return tabletCount;
  }

  public List<ColumnSpec> columns() {
    return columns;
  }

  int dynBatchSize() {
    return dynBatchSize;
  }
}
