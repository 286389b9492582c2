package io.ytstream.inmemory;

import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.types.value.YsonRepresentation;
import io.ytstream.types.yson.Yson;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The logical size of a row, for {@code $cumulative_data_weight}. It follows YTsaurus' rule for
 * unversioned rows ({@code yt/yt/client/table_client/unversioned_row.cpp}, {@code GetDataWeight};
 * the system columns: {@code yt/yt/server/node/tablet_node/ordered_dynamic_store.cpp}, {@code
 * WriteRow}), so numbers look like a real cluster's:
 *
 * <ul>
 *   <li>a row weighs 1 plus the weight of each value;
 *   <li>null weighs 0, a boolean 1, an integer or double 8, a string its UTF-8 length, bytes their
 *       length;
 *   <li>a value of an {@code any} column (type_v1 {@code any}: {@code yson} and every composite
 *       type_v3 type) weighs the length of its binary YSON, the form the server stores it in
 *       ({@code unversioned_row.h}: an {@code Any}/{@code Composite} value is a string of YSON
 *       bytes, weighed by its length);
 *   <li>each declared system column ({@code $timestamp}, {@code $cumulative_data_weight}) adds 8,
 *       because the column's own weight is counted.
 * </ul>
 */
final class DataWeight {

  private static final long FIXED_WIDTH = 8;

  private DataWeight() {}

  static long ofRow(Row data, StoredSchema schema) {
    long weight = 1 + FIXED_WIDTH * schema.declaredSystemColumnCount();
    List<Column> columns = schema.dataColumns();
    for (int i = 0; i < data.layout().size(); i++) {
      Object value = data.valueAt(i);
      Column column = columnOf(columns, i, data.layout().name(i));
      if (value != null && column != null && column.type().equals("any")) {
        weight += Yson.toBinary(YsonRepresentation.toYson(column.typeV3(), value)).length;
      } else {
        weight += ofValue(value);
      }
    }
    return weight;
  }

  /** The column of value {@code i} named {@code name}: at the same position in a stored row. */
  private static Column columnOf(List<Column> columns, int i, String name) {
    if (i < columns.size() && columns.get(i).name().equals(name)) {
      return columns.get(i);
    }
    for (Column column : columns) {
      if (column.name().equals(name)) {
        return column;
      }
    }
    return null;
  }

  static long ofValue(Object value) {
    if (value == null) {
      return 0;
    }
    if (value instanceof Boolean) {
      return 1;
    }
    if (value instanceof Long || value instanceof Double) {
      return FIXED_WIDTH;
    }
    if (value instanceof String text) {
      return text.getBytes(StandardCharsets.UTF_8).length;
    }
    if (value instanceof byte[] bytes) {
      return bytes.length;
    }
    if (value instanceof List<?> list) {
      long sum = 0;
      for (Object item : list) {
        sum += ofValue(item);
      }
      return sum;
    }
    if (value instanceof Map<?, ?> map) {
      long sum = 0;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        sum += ofValue(String.valueOf(entry.getKey())) + ofValue(entry.getValue());
      }
      return sum;
    }
    // Other numbers (should not occur: rows hold Long and Double) count as fixed width.
    return FIXED_WIDTH;
  }
}
