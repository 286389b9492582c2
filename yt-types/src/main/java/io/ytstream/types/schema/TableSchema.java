package io.ytstream.types.schema;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A table's {@code @schema}: ordered columns and the schema attributes {@code strict} (default
 * true) and {@code unique_keys} (default false). Column names are unique and key columns form a
 * prefix, as {@code yt/docs/en/_includes/user-guide/storage/static-schema.md} requires.
 */
public record TableSchema(List<ColumnSchema> columns, boolean strict, boolean uniqueKeys) {

  public TableSchema {
    Objects.requireNonNull(columns, "columns");
    columns = List.copyOf(columns);
    TreeSet<String> seen = new TreeSet<>();
    boolean keysEnded = false;
    for (int i = 0; i < columns.size(); i++) {
      ColumnSchema column = columns.get(i);
      if (!seen.add(column.name())) {
        throw new IllegalArgumentException(
            "column \"" + column.name() + "\" appears twice (again at position " + i + ")");
      }
      if (column.sortOrder().isKey()) {
        if (keysEnded) {
          throw new IllegalArgumentException(
              "key column \""
                  + column.name()
                  + "\" (position "
                  + i
                  + ") follows a non-key column; key columns must form a prefix of the schema");
        }
      } else {
        keysEnded = true;
      }
    }
  }

  /** A strict schema without unique keys. */
  public static TableSchema of(ColumnSchema... columns) {
    return new TableSchema(List.of(columns), true, false);
  }

  /** The column with this name, if any. */
  public Optional<ColumnSchema> column(String name) {
    for (ColumnSchema column : columns) {
      if (column.name().equals(name)) {
        return Optional.of(column);
      }
    }
    return Optional.empty();
  }

  /** The number of leading key columns. */
  public int keyColumnCount() {
    int count = 0;
    while (count < columns.size() && columns.get(count).sortOrder().isKey()) {
      count++;
    }
    return count;
  }
}
