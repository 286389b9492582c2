package io.ytstream.emulator;

import io.ytstream.core.schema.YtOptional;
import io.ytstream.core.schema.YtPrimitive;
import io.ytstream.core.schema.YtTagged;
import io.ytstream.core.schema.YtType;
import io.ytstream.ports.Row;
import io.ytstream.ports.RowLayout;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Tabular output as YSON, written row by row straight into {@link YsonBytes}: the same bytes as
 * each row converted by {@link TypedYson#toYson} into a map node and written whole, without the
 * node. Per row layout (rows of one table share theirs) each column's encoded name and how its
 * values are written are worked out once; scalar columns (integers, strings, doubles, booleans) are
 * written directly, composite ones through {@link TypedYson#toYson}.
 */
final class YsonRowWriter {

  private final Map<String, YtType> types;
  private final YsonBytes out;
  private RowLayout layout;
  private byte[][] keys;
  private Kind[] kinds;
  private YtType[] columnTypes;

  /** How one column's values go out. */
  private enum Kind {
    /** No type: the value as a plain YSON node ({@link TypedYson#plain}). */
    PLAIN,
    /** An unsigned integer type: a YSON uint64. */
    UINT64,
    /** A signed integer type: a YSON int64. */
    INT64,
    /** string, utf8, json, uuid: a YSON string of the bytes. */
    BYTES,
    /** Anything else, converted by {@link TypedYson#toYson}. */
    GENERAL
  }

  private YsonRowWriter(Map<String, YtType> types, boolean binary, int rows) {
    this.types = types;
    this.out = new YsonBytes(binary, Math.max(256, rows * 64));
  }

  /** {@code rows} as a list fragment, each column written as its type requires. */
  static byte[] write(List<Row> rows, Map<String, YtType> types, boolean binary) {
    YsonRowWriter writer = new YsonRowWriter(types, binary, rows.size());
    for (Row row : rows) {
      writer.row(row);
    }
    return writer.out.toByteArray();
  }

  private void row(Row row) {
    if (row.layout() != layout) {
      plan(row.layout());
    }
    out.write('{');
    for (int i = 0; i < keys.length; i++) {
      out.raw(keys[i]);
      out.write('=');
      value(i, row.valueAt(i));
      out.write(';');
    }
    out.write('}');
    out.endItem();
  }

  private void plan(RowLayout next) {
    int n = next.size();
    keys = new byte[n][];
    kinds = new Kind[n];
    columnTypes = new YtType[n];
    for (int i = 0; i < n; i++) {
      String name = next.name(i);
      YtType type = types.get(name);
      keys[i] = YsonBytes.encodedString(name.getBytes(StandardCharsets.UTF_8), out.binary());
      columnTypes[i] = type;
      kinds[i] = kindOf(type);
    }
    layout = next;
  }

  /** As {@link TypedYson#toYson}: tagged and optional-of-non-optional types write their item. */
  private static Kind kindOf(YtType type) {
    if (type == null) {
      return Kind.PLAIN;
    }
    YtType t = type;
    while (true) {
      if (t instanceof YtTagged tagged) {
        t = tagged.item();
      } else if (t instanceof YtOptional o && !o.item().isNullable()) {
        t = o.item();
      } else {
        break;
      }
    }
    if (!(t instanceof YtPrimitive p)) {
      return Kind.GENERAL;
    }
    return switch (p) {
      case UINT8, UINT16, UINT32, UINT64, DATE, DATETIME, TIMESTAMP -> Kind.UINT64;
      case INT8, INT16, INT32, INT64, INTERVAL, DATE32, DATETIME64, TIMESTAMP64, INTERVAL64 ->
          Kind.INT64;
      case STRING, UTF8, JSON, UUID -> Kind.BYTES;
      default -> Kind.PLAIN;
    };
  }

  private void value(int column, Object value) {
    if (value == null) {
      out.entity();
      return;
    }
    switch (kinds[column]) {
      case UINT64 -> out.uint64(((Number) value).longValue());
      case INT64 -> out.int64(((Number) value).longValue());
      case BYTES -> out.string(bytes(value));
      case PLAIN -> plain(value);
      case GENERAL -> out.value(TypedYson.toYson(columnTypes[column], value));
    }
  }

  /** {@link TypedYson#plain} for the common scalars without building a node. */
  private void plain(Object value) {
    if (value instanceof Long l) {
      out.int64(l);
    } else if (value instanceof String s) {
      out.string(s.getBytes(StandardCharsets.UTF_8));
    } else if (value instanceof byte[] b) {
      out.string(b);
    } else if (value instanceof Double d) {
      out.doubleValue(d);
    } else if (value instanceof Boolean b) {
      out.bool(b);
    } else {
      out.value(TypedYson.plain(value));
    }
  }

  private static byte[] bytes(Object text) {
    return text instanceof byte[] b ? b : ((String) text).getBytes(StandardCharsets.UTF_8);
  }
}
