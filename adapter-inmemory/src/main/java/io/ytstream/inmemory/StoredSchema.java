package io.ytstream.inmemory;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import io.ytstream.ports.RowLayout;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.types.value.YtValues;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The schema of a dynamic table, and the checks a write must pass against it. Rows are stored
 * normalized: every data column present, in schema order, missing ones null (YTsaurus writes
 * missing columns as null without {@code update=true}).
 */
final class StoredSchema {

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
  private final Set<String> dataColumnNames;
  private final ImmutableSet<String> columnNames;
  private final int declaredSystemColumnCount;

  /**
   * How errors name each data column ({@code column "v"}), built once: concatenating it for every
   * value written was a visible share of every append.
   */
  private final String[] dataColumnWhere;

  /** The layout of normalized rows, shared by all of them so readers resolve positions once. */
  private final RowLayout dataLayout;

  private StoredSchema(boolean sorted, List<Column> columns) {
    // Loops rather than streams: the simulation creates a few tables for every seed.
    this.sorted = sorted;
    this.columns = ImmutableList.copyOf(columns);
    ImmutableList.Builder<Column> data = ImmutableList.builder();
    ImmutableList.Builder<Column> keys = ImmutableList.builder();
    ImmutableSet.Builder<String> names = ImmutableSet.builder();
    int system = 0;
    for (Column column : this.columns) {
      if (column.name().startsWith("$")) {
        system++;
      } else {
        data.add(column);
      }
      if (column.key()) {
        keys.add(column);
      }
      names.add(column.name());
    }
    this.dataColumns = data.build();
    this.keyColumns = keys.build();
    // Asked on every append; worked out once here.
    this.columnNames = names.build();
    this.declaredSystemColumnCount = system;
    this.dataColumnNames = new HashSet<>();
    this.dataColumnWhere = new String[dataColumns.size()];
    for (int c = 0; c < dataColumns.size(); c++) {
      dataColumnNames.add(dataColumns.get(c).name());
      dataColumnWhere[c] = where(dataColumns.get(c));
    }
    List<String> dataNames = new ArrayList<>(dataColumns.size());
    for (Column column : dataColumns) {
      dataNames.add(column.name());
    }
    this.dataLayout = RowLayout.of(dataNames);
  }

  private static String where(Column column) {
    return "column \"" + column.name() + "\"";
  }

  /** An ordered (queue) table: no key columns; may declare {@code $timestamp} and friends. */
  static StoredSchema ordered(List<Column> columns) {
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
    return new StoredSchema(false, columns);
  }

  /** A sorted table: at least one key column, key columns first (YTsaurus requires a prefix). */
  static StoredSchema sorted(List<Column> columns) {
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
    return new StoredSchema(true, columns);
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

  /** The columns a stored row holds, in the order of its values. */
  ImmutableList<Column> dataColumns() {
    return dataColumns;
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
    Row exact = normalizeInSchemaOrder(table, row);
    if (exact != null) {
      return exact;
    }
    boolean inSchemaOrder = true;
    int i = 0;
    for (String name : row.asMap().keySet()) {
      if (ignoreTabletIndex && name.equals(TABLET_INDEX)) {
        inSchemaOrder = false;
        continue;
      }
      if (!dataColumnNames.contains(name)) {
        throw ClusterErrors.generic(
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
    Object[] values = new Object[dataColumns.size()];
    for (int c = 0; c < dataColumns.size(); c++) {
      Column column = dataColumns.get(c);
      Object value = row.get(column.name());
      Object canonical = checkValue(table, column, dataColumnWhere[c], value);
      changed |= canonical != value;
      values[c] = canonical;
    }
    return changed ? Row.adopting(dataLayout, values) : row;
  }

  /**
   * {@link #normalize} for a row holding exactly the data columns in schema order, the usual case,
   * read by position; null for any other row. Checks values in schema order, as the general path
   * does, so the first error is the same. The result shares this schema's layout, so that readers
   * resolve column positions once per table.
   */
  private Row normalizeInSchemaOrder(YPath table, Row row) {
    RowLayout layout = row.layout();
    boolean shared = layout == dataLayout;
    if (!shared && !layout.sameNamesAs(dataLayout)) {
      return null;
    }
    // Names are right; now the values, in schema order. Copied only if one is not canonical or
    // the row has its own copy of the layout.
    Object[] values = null;
    for (int c = 0; c < dataColumns.size(); c++) {
      Object value = row.valueAt(c);
      Object canonical = checkValue(table, dataColumns.get(c), dataColumnWhere[c], value);
      if ((canonical != value || !shared) && values == null) {
        values = new Object[dataColumns.size()];
        for (int i = 0; i < c; i++) {
          values[i] = row.valueAt(i);
        }
      }
      if (values != null) {
        values[c] = canonical;
      }
    }
    return values == null ? row : Row.adopting(dataLayout, values);
  }

  /** Checks a key row given to a delete and returns the key. */
  RowKey keyFromKeyRow(YPath table, Row keyRow) {
    for (String name : keyRow.asMap().keySet()) {
      if (keyColumns.stream().noneMatch(c -> c.name().equals(name))) {
        throw ClusterErrors.generic(
            "Column \"" + name + "\" is not a key column of table " + table.value());
      }
    }
    List<Object> key = new ArrayList<>(keyColumns.size());
    for (Column column : keyColumns) {
      key.add(checkValue(table, column, where(column), keyRow.get(column.name())));
    }
    return new RowKey(key);
  }

  RowKey keyOf(Row row) {
    Object[] key = new Object[keyColumns.size()];
    for (int i = 0; i < key.length; i++) {
      key[i] = row.get(keyColumns.get(i).name());
    }
    return RowKey.of(key);
  }

  /**
   * Checks a value against its column's type_v3 type and returns the canonical form {@link
   * YtValues} defines (which is what the cluster stores and reads back).
   */
  private static Object checkValue(YPath table, Column column, String where, Object value) {
    if (value == null) {
      if (column.required()) {
        throw ClusterErrors.generic(
            "Required column \"" + column.name() + "\" of table " + table.value() + " is null");
      }
      return null;
    }
    try {
      return YtValues.normalize(column.typeV3(), value, where);
    } catch (IllegalArgumentException e) {
      throw ClusterErrors.generic(
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
