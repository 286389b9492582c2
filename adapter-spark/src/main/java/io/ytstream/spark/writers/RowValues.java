package io.ytstream.spark.writers;

import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.types.SparkToYt;
import io.ytstream.spark.types.ValueConverter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.sql.catalyst.CatalystTypeConverters;
import org.apache.spark.sql.types.StructType;

/**
 * A {@code ForeachWriter}'s rows as YTsaurus values of its output's columns, through the sink's
 * checked converters (the ones {@code format("yt")} uses, with write_type_v3 on: a struct goes into
 * a struct column), built once per task and column.
 */
final class RowValues {

  private final String writer;
  private final String output;
  private final String kind;
  private final Set<String> skipped;
  private final Map<String, Column> columns = new TreeMap<>();

  // The plan for rows of the schema last seen (see plan).
  private StructType planned;
  private int[] fields;
  private String[] names;
  private ValueConverter[] plannedConverters;

  /**
   * @param writer the writer's name, for messages
   * @param output the output's path, for messages
   * @param kind what the output is ("table", "queue"), for messages
   * @param skipped the query's columns that are not written (the writer reads them itself)
   */
  RowValues(
      TableDescription described, String writer, String output, String kind, Set<String> skipped) {
    this.writer = writer;
    this.output = output;
    this.kind = kind;
    this.skipped = Set.copyOf(skipped);
    described.columns().forEach(c -> columns.put(c.name(), c));
  }

  /** The row's fields as values of the output's columns, or an error naming the fix. */
  @SuppressWarnings("ReferenceEquality") // the same schema object first, before comparing fields
  Map<String, Object> of(org.apache.spark.sql.Row row) {
    StructType schema = row.schema();
    if (schema != planned && !schema.equals(planned)) {
      plan(schema);
    }
    Map<String, Object> values = new LinkedHashMap<>(2 * fields.length);
    for (int k = 0; k < fields.length; k++) {
      int i = fields[k];
      // A ForeachWriter gets external Java values; the sink's converters take Catalyst ones.
      Object value = row.isNullAt(i) ? null : CatalystTypeConverters.convertToCatalyst(row.get(i));
      values.put(names[k], plannedConverters[k].convert(value));
    }
    return values;
  }

  /**
   * Which fields of rows of {@code schema} are written, as which columns and through which
   * converters: once per schema (a task's rows share one), not per value.
   */
  private void plan(StructType schema) {
    List<Integer> written = new ArrayList<>();
    List<ValueConverter> chosen = new ArrayList<>();
    for (int i = 0; i < schema.fields().length; i++) {
      String name = schema.fields()[i].name();
      if (skipped.contains(name)) {
        continue;
      }
      Column column = columns.get(name);
      if (column == null) {
        throw new IllegalArgumentException(
            writer
                + ": column "
                + name
                + " of the query is not a column of "
                + output
                + " "
                + columns.keySet()
                + ": add it to the "
                + kind
                + " or drop it from the query's select");
      }
      written.add(i);
      chosen.add(SparkToYt.column(name, column.typeV3(), schema.fields()[i].dataType(), true));
    }
    fields = written.stream().mapToInt(Integer::intValue).toArray();
    names = new String[fields.length];
    for (int k = 0; k < fields.length; k++) {
      names[k] = schema.fields()[fields[k]].name();
    }
    plannedConverters = chosen.toArray(new ValueConverter[0]);
    planned = schema;
  }
}
