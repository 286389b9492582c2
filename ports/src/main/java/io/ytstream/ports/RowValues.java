package io.ytstream.ports;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Equality and hashing of row values, with {@code byte[]} compared by content. */
final class RowValues {

  private RowValues() {}

  static boolean deepEquals(Object a, Object b) {
    if (a instanceof byte[] x && b instanceof byte[] y) {
      return Arrays.equals(x, y);
    }
    if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (Map.Entry<?, ?> e : x.entrySet()) {
        if (!y.containsKey(e.getKey()) || !deepEquals(e.getValue(), y.get(e.getKey()))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      Iterator<?> i = x.iterator();
      Iterator<?> j = y.iterator();
      while (i.hasNext()) {
        if (!deepEquals(i.next(), j.next())) {
          return false;
        }
      }
      return true;
    }
    return Objects.equals(a, b);
  }

  static int deepHash(Object value) {
    if (value instanceof byte[] bytes) {
      return Arrays.hashCode(bytes);
    }
    if (value instanceof Map<?, ?> map) {
      int h = 0;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        h += Objects.hashCode(e.getKey()) ^ deepHash(e.getValue());
      }
      return h;
    }
    if (value instanceof List<?> list) {
      int h = 1;
      for (Object item : list) {
        h = 31 * h + deepHash(item);
      }
      return h;
    }
    return Objects.hashCode(value);
  }
}
