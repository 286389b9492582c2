package io.ytstream.inmemory;

import java.nio.charset.StandardCharsets;
import java.util.Comparator;

/**
 * The order of key values, as YTsaurus sorts them: null first, then by type (integers, doubles,
 * booleans, strings), then by value. Strings compare by UTF-8 bytes (code point order), like
 * YTsaurus and unlike {@link String#compareTo}. Lists and maps are not key types.
 */
final class ValueOrder implements Comparator<Object> {

  static final ValueOrder INSTANCE = new ValueOrder();

  private ValueOrder() {}

  @Override
  public int compare(Object a, Object b) {
    // The common pairs first (same type, so the type rank cannot decide); then the general rule.
    if (a instanceof String x && b instanceof String y) {
      return compareStrings(x, y);
    }
    if (a instanceof Long x && b instanceof Long y) {
      return Long.compare(x, y);
    }
    int byType = Integer.compare(rank(a), rank(b));
    if (byType != 0) {
      return byType;
    }
    if (a == null) {
      return 0;
    }
    if (a instanceof Long x && b instanceof Long y) {
      return Long.compare(x, y);
    }
    if (a instanceof Double x && b instanceof Double y) {
      return Double.compare(x, y);
    }
    if (a instanceof Boolean x && b instanceof Boolean y) {
      return Boolean.compare(x, y);
    }
    if (a instanceof String x && b instanceof String y) {
      return compareStrings(x, y);
    }
    return compareBytes(bytes(a), bytes(b));
  }

  /**
   * UTF-8 byte order without encoding: below the surrogates, UTF-16 units sort like their UTF-8
   * bytes, and an equal prefix encodes equally. Only a surrogate at the first difference needs the
   * bytes (a lone one encodes as '?').
   */
  private static int compareStrings(String x, String y) {
    if (x.equals(y)) {
      return 0; // the common case for key prefixes, and equals is vectorized
    }
    int common = Math.min(x.length(), y.length());
    for (int i = 0; i < common; i++) {
      char cx = x.charAt(i);
      char cy = y.charAt(i);
      if (cx != cy) {
        if (Character.isSurrogate(cx) || Character.isSurrogate(cy)) {
          return compareBytes(bytes(x), bytes(y));
        }
        return Character.compare(cx, cy);
      }
    }
    return Integer.compare(x.length(), y.length());
  }

  /** Fails unless {@code value} can be part of a key. */
  void validateKeyValue(Object value) {
    rank(value);
  }

  private static int rank(Object value) {
    if (value == null) {
      return 0;
    }
    if (value instanceof Long) {
      return 1;
    }
    if (value instanceof Double) {
      return 2;
    }
    if (value instanceof Boolean) {
      return 3;
    }
    if (value instanceof String || value instanceof byte[]) {
      return 4;
    }
    throw new IllegalArgumentException(
        "a key value must be null, Long, Double, Boolean, String or byte[], got "
            + value.getClass().getName());
  }

  private static byte[] bytes(Object value) {
    return value instanceof byte[] raw ? raw : ((String) value).getBytes(StandardCharsets.UTF_8);
  }

  private static int compareBytes(byte[] x, byte[] y) {
    int common = Math.min(x.length, y.length);
    for (int i = 0; i < common; i++) {
      int byByte = Integer.compare(x[i] & 0xff, y[i] & 0xff);
      if (byByte != 0) {
        return byByte;
      }
    }
    return Integer.compare(x.length, y.length);
  }
}
