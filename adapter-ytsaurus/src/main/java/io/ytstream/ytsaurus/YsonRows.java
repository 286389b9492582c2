package io.ytstream.ytsaurus;

import io.ytstream.ports.Row;
import io.ytstream.ports.RowLayout;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtType;
import io.ytstream.types.value.YsonRepresentation;
import io.ytstream.types.value.YtValues;
import io.ytstream.types.yson.Yson;
import io.ytstream.types.yson.YsonMapListWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rows as binary YSON, the row stream of the tabular commands: a list fragment of maps, one per row
 * ({@code <format=binary>yson}, {@code yt/yt/library/formats/format.cpp}; what the Python client
 * sends and reads by default). YSON needs no escaping ({@code $row_index} is a plain key) and keeps
 * the wire types (a uint64 is a uint64, a string any bytes), so each column is converted with
 * yt-types' {@link YsonRepresentation} against its type_v3 type, and columns without a known type
 * (system columns, untyped projections) are plain YSON values ({@link Yson}). The one row format of
 * the tabular commands ({@code pull_queue_consumer}, {@code select_rows}, {@code lookup_rows},
 * {@code insert_rows}, {@code delete_rows}, {@code push_queue_producer}), in both directions.
 */
final class YsonRows {

  /** Binary YSON, as a JSON value for {@code X-YT-Input-Format} and {@code X-YT-Output-Format}. */
  static final String FORMAT = "{\"$value\":\"yson\",\"$attributes\":{\"format\":\"binary\"}}";

  /** The format in YSON's text form, for logs. */
  static final String DESCRIPTION = "<format=binary>yson";

  byte[] encode(List<Row> rows, Map<String, YtType> types) {
    // Written column by column, not through a map per row; each layout's types looked up once.
    YsonMapListWriter out = new YsonMapListWriter();
    RowLayout layout = null;
    YtType[] columnTypes = null;
    for (Row row : rows) {
      if (row.layout() != layout) {
        layout = row.layout();
        columnTypes = new YtType[layout.size()];
        for (int i = 0; i < columnTypes.length; i++) {
          columnTypes[i] = types.get(layout.name(i));
        }
      }
      out.startMap();
      for (int i = 0; i < columnTypes.length; i++) {
        String column = layout.name(i);
        out.entry(column, encodeValue(columnTypes[i], row.valueAt(i), column));
      }
      out.endMap();
    }
    return out.toByteArray();
  }

  private static Object encodeValue(YtType type, Object value, String column) {
    try {
      if (value == null) {
        return null;
      }
      if (type == null) {
        return untyped(value, column);
      }
      return YsonRepresentation.toYson(type, value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("column \"" + column + "\": " + e.getMessage(), e);
    }
  }

  /** A value of a column without a type: a YSON value; Java's narrower numbers are widened. */
  private static Object untyped(Object value, String column) {
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof Float f) {
      return f.doubleValue();
    }
    return YtValues.normalize(YtPrimitive.YSON, value, "column \"" + column + "\"");
  }

  /** In one pass over the bytes ({@link BinaryYsonRowDecoder}), as the request asks for binary. */
  void decode(byte[] body, Map<String, YtType> types, RowVisitor visitor) {
    new BinaryYsonRowDecoder(body, types).decode(visitor);
  }

  /**
   * As {@link #decode(byte[], Map, RowVisitor)}; with {@code textAsBytes} string and utf8 values
   * are handed as their UTF-8 {@code byte[]} (utf8 still checked), saving a decode to {@link
   * String} for callers that keep bytes.
   */
  void decode(byte[] body, Map<String, YtType> types, boolean textAsBytes, RowVisitor visitor) {
    new BinaryYsonRowDecoder(body, types, textAsBytes).decode(visitor);
  }

  /** Rows as maps in column order (for callers that want the whole row as a map). */
  List<Map<String, Object>> decode(byte[] body, Map<String, YtType> types) {
    return decode(body, types, false);
  }

  /** As {@link #decode(byte[], Map)}, text kept as bytes with {@code textAsBytes}. */
  List<Map<String, Object>> decode(byte[] body, Map<String, YtType> types, boolean textAsBytes) {
    List<Map<String, Object>> rows = new ArrayList<>();
    decode(
        body,
        types,
        textAsBytes,
        new RowVisitor() {
          private Map<String, Object> row = new LinkedHashMap<>();

          @Override
          public void column(String name, Object value) {
            row.put(name, value);
          }

          @Override
          public boolean endRow() {
            rows.add(row);
            row = new LinkedHashMap<>();
            return true;
          }
        });
    return rows;
  }
}
