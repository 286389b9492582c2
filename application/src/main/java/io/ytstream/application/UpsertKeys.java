package io.ytstream.application;

import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableDescription.Column;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The upsert {@code ForeachWriter}'s keys: each output row is upserted into a sorted table by the
 * table's own key (a stateful query's grouping key, say), so the latest row of a key wins and a
 * batch replayed after a restart writes the same keys again. Unlike {@link SourcePositionKeys} the
 * key is the user's: this class checks that the table is sorted ({@link #checkTable}) and that the
 * query's rows carry every key column ({@link #checkColumns}), once on the driver when the schema
 * is known and again for each task's first row.
 */
@DrivingUseCase
public final class UpsertKeys {

  private final String writer;
  private final String table;
  private final List<String> keyColumns;
  private Set<String> checked;

  /**
   * One task's keys.
   *
   * @param writer the writer's name, for errors
   * @param table the output table as the user named it, for errors
   * @param keyColumns the output table's key columns, in order
   */
  public UpsertKeys(String writer, String table, List<String> keyColumns) {
    this.writer = Objects.requireNonNull(writer, "writer");
    this.table = Objects.requireNonNull(table, "table");
    this.keyColumns = List.copyOf(keyColumns);
  }

  /** Fails, saying what to change, unless {@code t} is a sorted table (it has a key). */
  public static void checkTable(String writer, TableDescription t) {
    if (!t.sorted() || t.keyColumns().isEmpty()) {
      throw new IllegalArgumentException(
          writer
              + ": "
              + t.path()
              + " is an ordered table; this writer upserts by key into a sorted dynamic table."
              + " Create the table with the query's key columns (e.g. the groupBy columns) as"
              + " sort_order=ascending key columns, or use YtAppendForeachWriter to append to an"
              + " ordered table (at least once)");
    }
  }

  /**
   * Fails, naming the missing column and the fix, unless {@code rowColumns} (the query's output
   * columns) include every key column of {@code t}.
   */
  public static void checkColumns(String writer, TableDescription t, Iterable<String> rowColumns) {
    Set<String> have = new TreeSet<>();
    rowColumns.forEach(have::add);
    for (Column key : t.keyColumns()) {
      if (!have.contains(key.name())) {
        throw new IllegalArgumentException(
            writer
                + ": key column "
                + key.name()
                + " of "
                + t.path()
                + " is not a column of the query "
                + have
                + ": a row without it cannot be upserted by key. Select it in the query (for"
                + " an aggregation, group by it), or give the table the query's key columns");
      }
    }
  }

  /**
   * The output row of an input row whose values are {@code values} (by column); checks the key
   * columns once per task (a task's rows share one schema).
   */
  public Row keyed(Map<String, Object> values) {
    if (checked == null || !checked.equals(values.keySet())) {
      for (String k : keyColumns) {
        if (!values.containsKey(k)) {
          throw new IllegalArgumentException(
              writer
                  + ": key column "
                  + k
                  + " of "
                  + table
                  + " is not a column of the query "
                  + new TreeSet<>(values.keySet())
                  + ": a row without it cannot be upserted by key. Select it in the query (for"
                  + " an aggregation, group by it), or give the table the query's key columns");
        }
      }
      checked = Set.copyOf(values.keySet());
    }
    return Row.of(values);
  }
}
