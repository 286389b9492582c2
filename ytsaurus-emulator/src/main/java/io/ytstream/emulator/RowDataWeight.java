package io.ytstream.emulator;

import io.ytstream.ports.Row;
import java.util.List;
import java.util.Map;

/**
 * The logical size of a row as {@code max_data_weight} counts it (YTsaurus' unversioned-row rule):
 * 1 per row, plus 0 for null, 1 for a boolean, 8 for an integer or double, the byte length of a
 * string, and the sum of the elements of a composite value. Written here, not shared with the
 * in-memory cluster's {@code $cumulative_data_weight}, so the wire side is checked on its own.
 */
final class RowDataWeight {

  private RowDataWeight() {}

  /** The weight of a row given as its column values (system columns included). */
  static long of(Row row) {
    long weight = 1;
    for (int i = 0; i < row.layout().size(); i++) {
      weight += ofValue(row.valueAt(i));
    }
    return weight;
  }

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
