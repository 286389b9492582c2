package io.ytstream.emulator;

import io.ytstream.ports.Row;
import io.ytstream.types.v3.TypeV1;
import io.ytstream.types.v3.YtType;
import io.ytstream.types.yson.Yson;
import io.ytstream.types.yson.YsonAttributed;
import java.util.List;
import java.util.Map;

/**
 * The logical size of a row as {@code max_data_weight} counts it (YTsaurus' unversioned-row rule,
 * {@code yt/yt/client/table_client/unversioned_row.h}, {@code GetDataWeight}): 1 per row, plus 0
 * for null, 1 for a boolean, 8 for an integer or double, the byte length of a string; a value of an
 * {@code any} column (type_v1 {@code any}: {@code yson} and every composite type) is stored as
 * binary YSON and weighs that YSON's length, as does a composite value of a column whose type is
 * not known here. Written here, not shared with the in-memory cluster's {@code
 * $cumulative_data_weight}, so the wire side is checked on its own.
 */
final class RowDataWeight {

  private RowDataWeight() {}

  /** The weight of a row given as its column values (system columns included), types unknown. */
  static long of(Row row) {
    return of(row, Map.of());
  }

  /** The weight of a row whose columns have the type_v3 {@code types} (system columns: none). */
  static long of(Row row, Map<String, YtType> types) {
    long weight = 1;
    for (int i = 0; i < row.layout().size(); i++) {
      weight += ofValue(types.get(row.layout().name(i)), row.valueAt(i));
    }
    return weight;
  }

  /** Whether a column of {@code type} holds binary YSON on the server (type_v1 {@code any}). */
  static boolean storedAsYson(YtType type) {
    return type != null && TypeV1.fromTypeV3(type).name().equals("any");
  }

  /** The weight of {@code value} in a column of {@code type} (null when not known). */
  static long ofValue(YtType type, Object value) {
    if (value == null) {
      return 0;
    }
    if (storedAsYson(type)) {
      return ofYson(TypedYson.toYson(type, value));
    }
    return ofValue(value);
  }

  /** The length of {@code node} as binary YSON. */
  static long ofYson(Object node) {
    return Yson.toBinary(node).length;
  }

  /** The weight of a value whose column's type is not known. */
  static long ofValue(Object value) {
    if (value == null) {
      return 0;
    }
    if (value instanceof Boolean) {
      return 1;
    }
    if (value instanceof String text) {
      return utf8Length(text);
    }
    if (value instanceof byte[] bytes) {
      return bytes.length;
    }
    if (value instanceof List<?> || value instanceof Map<?, ?> || value instanceof YsonAttributed) {
      return ofYson(TypedYson.plain(value));
    }
    // Integers, doubles and anything of fixed width.
    return 8;
  }

  /** The length of {@code text} in UTF-8, without encoding it (this runs for every pulled row). */
  static long utf8Length(String text) {
    long length = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        length += 1;
      } else if (c < 0x800) {
        length += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        length += 4;
        i++;
      } else {
        // Other chars, lone surrogates included (encoded as '?', one byte, by getBytes).
        length += Character.isSurrogate(c) ? 1 : 3;
      }
    }
    return length;
  }
}
