package io.ytstream.inmemory;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import io.ytstream.core.model.YPath;
import io.ytstream.core.schema.YtValues;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The schema of a dynamic table, and the checks a write must pass against it. Rows are stored
 * normalized: every data column present, in schema order, missing ones null (YTsaurus writes
 * missing columns as null without {@code update=true}).
 */
final class TableSchema {

  static final String TABLET_INDEX = "$tablet_index";
  static final String ROW_INDEX = "$row_index";
  static final String TIMESTAMP = "$timestamp";
  static final String CUMULATIVE_DATA_WEIGHT = "$cumulative_data_weight";

  private static final ImmutableSet<String> DECLARABLE_SYSTEM_COLUMNS =
      ImmutableSet.of(TIMESTAMP, CUMULATIVE_DATA_WEIGHT);
  private final boolean sorted;
  private final ImmutableList<Column> columns;
  private final ImmutableList<Column> dataColumns;
  private final ImmutableList<Column> keyColumns;
  private final Map<String, Column> dataColumnsByName;
  private final ImmutableSet<String> columnNames;
  private final int declaredSystemColumnCount;

  private TableSchema(boolean sorted, List<Column> columns) {
    this.sorted = sorted;
    this.columns = ImmutableList.copyOf(columns);
    this.dataColumns =
        this.columns.stream()
            .filter(c -> !c.name().startsWith("$"))
            .collect(ImmutableList.toImmutableList());
    this.keyColumns =
        this.columns.stream().filter(Column::key).collect(ImmutableList.toImmutableList());
    this.dataColumnsByName = new LinkedHashMap<>();
    dataColumns.forEach(c -> dataColumnsByName.put(c.name(), c));
    // Asked on every append; worked out once here.
    this.columnNames =
        this.columns.stream().map(Column::name).collect(ImmutableSet.toImmutableSet());
    this.declaredSystemColumnCount =
        (int) this.columns.stream().filter(c -> c.name().startsWith("$")).count();
  }

  /** An ordered (queue) table: no key columns; may declare {@code $timestamp} and friends. */
  static TableSchema ordered(List<Column> columns) {
    checkNames(columns);
    for (Column column : columns) {
      if (column.key()) {
        throw new IllegalArgumentException(
            "ordered tables have no key columns, but " + column.name() + " is a key");
      }
      if (column.name().startsWith("$") && !DECLARABLE_SYSTEM_COLUMNS.contains(column.name())) {
        throw new IllegalArgumentException(
            "an ordered table may declare only "
                + DECLARABLE_SYSTEM_COLUMNS
                + " as system columns, not "
                + column.name());
      }
    }
    return new TableSchema(false, columns);
  }

  /** A sorted table: at least one key column, key columns first (YTsaurus requires a prefix). */
  static TableSchema sorted(List<Column> columns) {
    checkNames(columns);
    boolean keysEnded = false;
    for (Column column : columns) {
      if (column.name().startsWith("$")) {
        throw new IllegalArgumentException("sorted tables declare no system columns");
      }
      if (column.key() && keysEnded) {
        throw new IllegalArgumentException(
            "key column " + column.name() + " must come before every non-key column");
      }
      keysEnded |= !column.key();
    }
    if (columns.isEmpty() || !columns.get(0).key()) {
      throw new IllegalArgumentException("a sorted table needs at least one key column");
    }
    return new TableSchema(true, columns);
  }

  private static void checkNames(List<Column> columns) {
    Set<String> seen = new LinkedHashSet<>();
    for (Column column : columns) {
      if (!seen.add(column.name())) {
        throw new IllegalArgumentException("duplicate column " + column.name());
      }
    }
    if (columns.stream().noneMatch(c -> !c.name().startsWith("$"))) {
      throw new IllegalArgumentException("a table needs at least one data column");
    }
  }

  boolean sorted() {
    return sorted;
  }

  /** All declared columns, system ones included, in declaration order. */
  ImmutableList<Column> columns() {
    return columns;
  }

  ImmutableList<Column> keyColumns() {
    return keyColumns;
  }

  boolean declares(String systemColumn) {
    return columnNames.contains(systemColumn);
  }

  int declaredSystemColumnCount() {
    return declaredSystemColumnCount;
  }

  /**
   * Checks a written row and returns it normalized (schema order, missing columns null). The caller
   * has already taken {@code $tablet_index} out of ordered-table rows.
   */
  Row normalize(YPath table, Row row) {
    return normalize(table, row, false);
  }

  /**
   * As {@link #normalize(YPath, Row)}, ignoring {@code $tablet_index} when {@code
   * ignoreTabletIndex}, so ordered-table appends need not copy the row to drop it first. A row that
   * is already normalized is returned as it is (rows are immutable): appends mostly are.
   */
  Row normalize(YPath table, Row row, boolean ignoreTabletIndex) {
    boolean inSchemaOrder = true;
    int i = 0;
    for (String name : row.asMap().keySet()) {
      if (ignoreTabletIndex && name.equals(TABLET_INDEX)) {
        inSchemaOrder = false;
        continue;
      }
      if (!dataColumnsByName.containsKey(name)) {
        throw YtErrors.generic(
            name.startsWith("$")
                ? "System column " + name + " cannot be written to table " + table.value()
                : "No column \"" + name + "\" in the strict schema of table " + table.value());
      }
      inSchemaOrder &= i < dataColumns.size() && dataColumns.get(i).name().equals(name);
      i++;
    }
    inSchemaOrder &= i == dataColumns.size();
    // Values are stored in their canonical form; the row is copied only when that or the column
    // order differs from what was given.
    boolean changed = !inSchemaOrder;
    Object[] namesAndValues = new Object[dataColumns.size() * 2];
    for (int c = 0; c < dataColumns.size(); c++) {
      Column column = dataColumns.get(c);
      Object value = row.get(column.name());
      Object canonical = checkValue(table, column, value);
      changed |= canonical != value;
      namesAndValues[2 * c] = column.name();
      namesAndValues[2 * c + 1] = canonical;
    }
    return changed ? Row.of(namesAndValues) : row;
  }

  /** Checks a key row given to a delete and returns the key. */
  RowKey keyFromKeyRow(YPath table, Row keyRow) {
    for (String name : keyRow.asMap().keySet()) {
      if (keyColumns.stream().noneMatch(c -> c.name().equals(name))) {
        throw YtErrors.generic(
            "Column \"" + name + "\" is not a key column of table " + table.value());
      }
    }
    List<Object> key = new ArrayList<>(keyColumns.size());
    for (Column column : keyColumns) {
      key.add(checkValue(table, column, keyRow.get(column.name())));
    }
    return new RowKey(key);
  }

  RowKey keyOf(Row row) {
    List<Object> key = new ArrayList<>(keyColumns.size());
    keyColumns.forEach(c -> key.add(row.get(c.name())));
    return new RowKey(key);
  }

  /**
   * Checks a value against its column's type_v3 type and returns the canonical form {@link
   * YtValues} defines (which is what the cluster stores and reads back).
   */
  private static Object checkValue(YPath table, Column column, Object value) {
    if (value == null) {
      if (column.required()) {
        throw YtErrors.generic(
            "Required column \"" + column.name() + "\" of table " + table.value() + " is null");
      }
      return null;
    }
    try {
      return YtValues.normalize(column.typeV3(), value, "column \"" + column.name() + "\"");
    } catch (IllegalArgumentException e) {
      throw YtErrors.generic(
          "Cannot write into table "
              + table.value()
              + ": "
              + e.getMessage()
              + " (column type "
              + column.typeV3().describe()
              + ")");
    }
  }
}
