package io.ytstream.emulator;

import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.RowLayout;
import io.ytstream.types.v3.YtOptional;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtTagged;
import io.ytstream.types.v3.YtType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Tabular output as YSON, written row by row straight into {@link YsonBytes}: the same bytes as
 * each row converted by {@link TypedYson#toYson} into a map node and written whole, without the
 * node. Per row layout (rows of one table share theirs) each column's encoded name, with the
 * punctuation around it, and how its values are written are worked out once; scalar columns
 * (integers, strings, doubles, booleans) are written directly, composite ones through {@link
 * TypedYson#toYson}. Each row's {@link RowDataWeight} is counted from the values as they are
 * written, so a short read at {@code max_data_weight} reads each value once.
 */
final class YsonRowWriter {

  private final Map<String, YtType> types;
  private final YsonBytes out;
  private RowLayout layout;
  // Before column i: "{" (i = 0) or ";", then its name and "=". After the last: ";}" and the
  // row's separator.
  private byte[][] before;
  private byte[] end;
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

  /**
   * {@code rows} as a list fragment, each column written as its type requires; rows go while the
   * weight so far is below {@code maxDataWeight}, so the row that crosses it is the last one
   * ({@code yt/yt/server/node/tablet_node/ordered_dynamic_store.cpp}; the first always goes).
   */
  static byte[] write(
      List<Row> rows, Map<String, YtType> types, boolean binary, long maxDataWeight) {
    YsonRowWriter writer = new YsonRowWriter(types, binary, rows.size());
    PulledRows.Answer pulled = rows instanceof PulledRows.Answer a ? a : null;
    long weight = 0;
    for (int i = 0; i < rows.size(); i++) {
      if (i > 0 && weight >= maxDataWeight) {
        break;
      }
      weight += pulled != null ? writer.pulledRow(pulled, i) : writer.row(rows.get(i));
    }
    return writer.out.toByteArray();
  }

  /**
   * Writes pulled row {@code index} as {@link #row} writes {@code pulled.get(index)}, straight from
   * the queue row: the same bytes and weight.
   */
  private long pulledRow(PulledRows.Answer pulled, int index) {
    QueueRow queueRow = pulled.queueRow(index);
    RowLayout answer = pulled.layoutOf(queueRow);
    if (answer == null) {
      return row(pulled.get(index));
    }
    if (answer != layout) {
      plan(answer);
    }
    long weight = 1;
    out.raw(before[0]);
    weight += systemInteger(0, queueRow.tabletIndex());
    out.raw(before[1]);
    weight += systemInteger(1, queueRow.rowIndex());
    Row data = queueRow.data();
    int n = data.layout().size();
    for (int i = 0; i < n; i++) {
      out.raw(before[i + 2]);
      weight += value(i + 2, data.valueAt(i));
    }
    int next = n + 2;
    if (queueRow.timestamp().isPresent()) {
      out.raw(before[next]);
      weight += value(next++, queueRow.timestamp().getAsLong());
    }
    if (queueRow.cumulativeDataWeight().isPresent()) {
      out.raw(before[next]);
      weight += value(next, queueRow.cumulativeDataWeight().getAsLong());
    }
    out.raw(end);
    return weight;
  }

  /** {@code $tablet_index} or {@code $row_index}: an int64 unless the schema gives it a type. */
  private long systemInteger(int column, long value) {
    if (kinds[column] == Kind.PLAIN || kinds[column] == Kind.INT64) {
      out.int64(value);
      return 8;
    }
    return value(column, value);
  }

  /** Writes one row; returns its data weight. */
  private long row(Row row) {
    if (row.layout() != layout) {
      plan(row.layout());
    }
    long weight = 1;
    for (int i = 0; i < before.length; i++) {
      out.raw(before[i]);
      weight += value(i, row.valueAt(i));
    }
    out.raw(end);
    return weight;
  }

  private void plan(RowLayout next) {
    int n = next.size();
    before = new byte[n][];
    kinds = new Kind[n];
    columnTypes = new YtType[n];
    for (int i = 0; i < n; i++) {
      String name = next.name(i);
      YtType type = types.get(name);
      byte[] key = YsonBytes.encodedString(name.getBytes(StandardCharsets.UTF_8), out.binary());
      byte[] chunk = new byte[key.length + 2];
      chunk[0] = (byte) (i == 0 ? '{' : ';');
      System.arraycopy(key, 0, chunk, 1, key.length);
      chunk[chunk.length - 1] = '=';
      before[i] = chunk;
      columnTypes[i] = type;
      kinds[i] = kindOf(type);
    }
    String close = (n == 0 ? "{}" : ";}") + (out.binary() ? ";" : ";\n");
    end = close.getBytes(StandardCharsets.US_ASCII);
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

  /** Writes one value; returns its data weight. */
  private long value(int column, Object value) {
    if (value == null) {
      out.entity();
      return 0;
    }
    switch (kinds[column]) {
      case UINT64:
        out.uint64(((Number) value).longValue());
        return 8;
      case INT64:
        out.int64(((Number) value).longValue());
        return 8;
      case BYTES:
        byte[] bytes = bytes(value);
        out.string(bytes);
        return bytes.length;
      case PLAIN:
        if (RowDataWeight.storedAsYson(columnTypes[column])) {
          // A yson column: its value is stored as binary YSON, whatever it holds.
          Object yson = TypedYson.toYson(columnTypes[column], value);
          out.value(yson);
          return RowDataWeight.ofYson(yson);
        }
        return plain(value);
      default:
        Object node = TypedYson.toYson(columnTypes[column], value);
        out.value(node);
        return RowDataWeight.storedAsYson(columnTypes[column])
            ? RowDataWeight.ofYson(node)
            : RowDataWeight.ofValue(value);
    }
  }

  /** {@link TypedYson#plain} for the common scalars without building a node. */
  private long plain(Object value) {
    if (value instanceof Long l) {
      out.int64(l);
      return 8;
    }
    if (value instanceof String s) {
      byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
      out.string(bytes);
      return bytes.length;
    }
    if (value instanceof byte[] b) {
      out.string(b);
      return b.length;
    }
    if (value instanceof Double d) {
      out.doubleValue(d);
      return 8;
    }
    if (value instanceof Boolean b) {
      out.bool(b);
      return 1;
    }
    Object node = TypedYson.plain(value);
    out.value(node);
    return RowDataWeight.ofValue(value);
  }

  private static byte[] bytes(Object text) {
    return text instanceof byte[] b ? b : ((String) text).getBytes(StandardCharsets.UTF_8);
  }
}
