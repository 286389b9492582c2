package io.ytstream.ytsaurus;

import io.ytstream.ports.Row;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtType;
import io.ytstream.types.value.YsonRepresentation;
import io.ytstream.types.value.YtValues;
import io.ytstream.types.yson.Yson;
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
 * (system columns, untyped projections) are plain YSON values ({@link Yson}).
 */
final class YsonRows implements RowFormat {

  /** Binary YSON, as a JSON value for the headers. */
  static final String FORMAT = "{\"$value\":\"yson\",\"$attributes\":{\"format\":\"binary\"}}";

  @Override
  public String inputFormat() {
    return FORMAT;
  }

  @Override
  public String outputFormat() {
    return FORMAT;
  }

  @Override
  public String describe() {
    return "<format=binary>yson";
  }

  @Override
  public byte[] encode(List<Row> rows, Map<String, YtType> types) {
    List<Object> maps = new ArrayList<>(rows.size());
    for (Row row : rows) {
      Map<String, Object> map = new LinkedHashMap<>();
      for (Map.Entry<String, Object> e : row.asMap().entrySet()) {
        String column = e.getKey();
        map.put(column, encodeValue(types.get(column), e.getValue(), column));
      }
      maps.add(map);
    }
    return Yson.toBinaryListFragment(maps);
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
  @Override
  public void decode(byte[] body, Map<String, YtType> types, RowVisitor visitor) {
    new BinaryYsonRowDecoder(body, types).decode(visitor);
  }

  @Override
  public void decode(
      byte[] body, Map<String, YtType> types, boolean textAsBytes, RowVisitor visitor) {
    new BinaryYsonRowDecoder(body, types, textAsBytes).decode(visitor);
  }
}
