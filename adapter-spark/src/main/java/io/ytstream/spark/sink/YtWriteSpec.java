package io.ytstream.spark.sink;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.config.ClusterRef;
import io.ytstream.spark.config.YtOptions;
import io.ytstream.spark.types.ColumnSpec;
import io.ytstream.spark.types.SparkToYt;
import io.ytstream.spark.types.ValueConverter;
import io.ytstream.spark.types.YtTypes;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The output table as writers need it on executors, checked against the DataFrame's schema before
 * the first batch: every DataFrame column exists in the table with a compatible type, every
 * required table column and every key column is written.
 */
public final class YtWriteSpec implements Serializable {

  static final String TABLET_INDEX = "$tablet_index";
  private static final String OUTPUT_TABLET_KEY = YtOptions.OUTPUT_TABLET_KEY;

  private static final long serialVersionUID = 1L;

  private final ClusterRef cluster;
  private final String path;
  private final boolean sorted;
  private final int tabletCount;
  private final ArrayList<ColumnSpec> columns;
  private final int dynBatchSize;

  /** A static table: rows appended in master transactions, with no {@code $tablet_index}. */
  private boolean staticTable;

  /** The DataFrame's {@code $tablet_index} names each row's output tablet. */
  private final boolean namedTablet;

  /** The columns hashed onto the output's tablets ({@code output_tablet_key}); empty if none. */
  private final ArrayList<String> tabletKey;

  private YtWriteSpec(
      ClusterRef cluster,
      String path,
      boolean sorted,
      int tabletCount,
      List<ColumnSpec> columns,
      int dynBatchSize,
      boolean namedTablet,
      List<String> tabletKey) {
    this.cluster = cluster;
    this.path = path;
    this.sorted = sorted;
    this.tabletCount = tabletCount;
    this.columns = new ArrayList<>(columns);
    this.dynBatchSize = dynBatchSize;
    this.namedTablet = namedTablet;
    this.tabletKey = new ArrayList<>(tabletKey);
  }

  /** As {@link #check(ClusterRef, TableDescription, StructType, int, boolean, List)}, no key. */
  public static YtWriteSpec check(
      ClusterRef cluster,
      TableDescription table,
      StructType schema,
      int dynBatchSize,
      boolean writeTypeV3) {
    return check(cluster, table, schema, dynBatchSize, writeTypeV3, List.of());
  }

  /**
   * @param tabletKey the columns of option {@code output_tablet_key}, empty when not given
   */
  public static YtWriteSpec check(
      ClusterRef cluster,
      TableDescription table,
      StructType schema,
      int dynBatchSize,
      boolean writeTypeV3,
      List<String> tabletKey) {
    YPath path = table.path();
    boolean namedTablet = false;
    List<ColumnSpec> columns = new ArrayList<>();
    List<String> names = new ArrayList<>();
    YtTypes.dataColumns(table).forEach(c -> names.add(c.name()));
    for (StructField field : schema.fields()) {
      Optional<Column> column =
          YtTypes.dataColumns(table).stream()
              .filter(c -> c.name().equals(field.name()))
              .findFirst();
      if (column.isEmpty() && field.name().equals(TABLET_INDEX)) {
        checkNamedTablet(table, field, tabletKey);
        namedTablet = true;
        columns.add(ColumnSpec.notWritten(field.name(), field.dataType()));
        continue;
      }
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
    checkTabletKey(table, columns, tabletKey);
    return new YtWriteSpec(
        cluster,
        path.value(),
        table.sorted(),
        Math.max(1, table.tabletCount()),
        columns,
        dynBatchSize,
        namedTablet,
        tabletKey);
  }

  /** {@code $tablet_index} of the DataFrame: an integer column, for an ordered output only. */
  private static void checkNamedTablet(
      TableDescription table, StructField field, List<String> tabletKey) {
    if (table.sorted()) {
      throw new IllegalArgumentException(
          "the DataFrame has column "
              + TABLET_INDEX
              + ", but "
              + table.path()
              + " is a sorted table: each row goes to the tablet that holds its key, which no row"
              + " can choose. Drop the column from the select");
    }
    if (!tabletKey.isEmpty()) {
      throw new IllegalArgumentException(
          "the DataFrame has column "
              + TABLET_INDEX
              + " and option "
              + OUTPUT_TABLET_KEY
              + " = "
              + String.join(",", tabletKey)
              + " is given: both choose the output tablet. Keep one: drop the column, or remove"
              + " the option");
    }
    DataType type = field.dataType();
    if (!(type instanceof LongType
        || type instanceof IntegerType
        || type instanceof ShortType
        || type instanceof ByteType)) {
      throw new IllegalArgumentException(
          "column "
              + TABLET_INDEX
              + " of the DataFrame is "
              + type.simpleString()
              + ": it names each row's output tablet of "
              + table.path()
              + " and must be an integer from 0 to "
              + (Math.max(1, table.tabletCount()) - 1)
              + "; cast it, e.g. col(\"$tablet_index\").cast(\"long\")");
    }
  }

  /** The columns of {@code output_tablet_key}: written scalar columns, for an ordered output. */
  private static void checkTabletKey(
      TableDescription table, List<ColumnSpec> columns, List<String> tabletKey) {
    if (tabletKey.isEmpty()) {
      return;
    }
    String option = "option " + OUTPUT_TABLET_KEY + " = '" + String.join(",", tabletKey) + "'";
    if (table.sorted()) {
      throw new IllegalArgumentException(
          option
              + ": "
              + table.path()
              + " is a sorted table, whose rows go to the tablet that holds their key (and one"
              + " key's rows are one row, upserted). Remove the option; it applies to ordered"
              + " tables and queues");
    }
    for (String key : tabletKey) {
      Optional<ColumnSpec> column =
          columns.stream().filter(c -> c.name().equals(key) && c.isWritten()).findFirst();
      if (column.isEmpty()) {
        throw new IllegalArgumentException(
            option
                + ": the DataFrame has no written column '"
                + key
                + "' (it has "
                + columns.stream().filter(ColumnSpec::isWritten).map(ColumnSpec::name).toList()
                + "). Name columns of the DataFrame that are columns of "
                + table.path());
      }
      DataType type = column.get().sparkType();
      if (type instanceof StructType
          || type instanceof ArrayType
          || type instanceof MapType
          || type instanceof DecimalType) {
        throw new IllegalArgumentException(
            option
                + ": column '"
                + key
                + "' is "
                + type.simpleString()
                + ", which the tablet hash does not take: use columns of strings, binary,"
                + " integers, floating point numbers, booleans, dates or timestamps (or hash a"
                + " cast, e.g. add col(\""
                + key
                + "\").cast(\"string\") as a column)");
      }
    }
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
      boolean writeTypeV3,
      List<String> tabletKey) {
    if (!tabletKey.isEmpty() || List.of(schema.fieldNames()).contains(TABLET_INDEX)) {
      // A static table has no tablets: a choice of one would be dropped without a word.
      throw new IllegalArgumentException(
          table.path()
              + " is a static table, which has no tablets, but the query chooses an output tablet"
              + " ("
              + (tabletKey.isEmpty()
                  ? "column " + TABLET_INDEX
                  : "option " + OUTPUT_TABLET_KEY + " = '" + String.join(",", tabletKey) + "'")
              + "). Drop the "
              + (tabletKey.isEmpty() ? "column from the select" : "option")
              + ", or write an ordered dynamic table");
    }
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

  /** Whether the DataFrame's {@code $tablet_index} names each row's output tablet. */
  boolean namedTablet() {
    return namedTablet;
  }

  /** The columns hashed onto the output's tablets; empty for round-robin. */
  List<String> tabletKey() {
    return tabletKey;
  }
}
