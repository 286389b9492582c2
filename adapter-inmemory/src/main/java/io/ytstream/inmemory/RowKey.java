package io.ytstream.inmemory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The key of a sorted-table row: its key column values in key order. Equality follows {@link
 * ValueOrder}, so a {@code byte[]} key equals the same bytes given as a string.
 */
final class RowKey implements Comparable<RowKey> {

  private final List<Object> values;

  RowKey(List<Object> values) {
    this(values.toArray());
  }

  /** The array becomes the key's own: no further copy (keys are made for every write). */
  private RowKey(Object[] owned) {
    // Not ImmutableList: it rejects nulls, and null is a legal key value.
    this.values = Collections.unmodifiableList(Arrays.asList(owned));
    for (Object value : owned) {
      ValueOrder.INSTANCE.validateKeyValue(value);
    }
  }

  static RowKey of(Object... values) {
    return new RowKey(values);
  }

  List<Object> values() {
    return values;
  }

  /** True when this key starts with {@code prefix}. */
  boolean startsWith(List<Object> prefix) {
    if (prefix.size() > values.size()) {
      return false;
    }
    for (int i = 0; i < prefix.size(); i++) {
      if (ValueOrder.INSTANCE.compare(values.get(i), prefix.get(i)) != 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int compareTo(RowKey other) {
    int common = Math.min(values.size(), other.values.size());
    for (int i = 0; i < common; i++) {
      int c = ValueOrder.INSTANCE.compare(values.get(i), other.values.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(values.size(), other.values.size());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RowKey other && compareTo(other) == 0;
  }

  @Override
  public int hashCode() {
    int h = 1;
    for (Object value : values) {
      Object normalized =
          value instanceof byte[] raw ? new String(raw, StandardCharsets.UTF_8) : value;
      h = 31 * h + (normalized == null ? 0 : normalized.hashCode());
    }
    return h;
  }

  @Override
  public String toString() {
    List<String> shown = new ArrayList<>();
    for (Object value : values) {
      shown.add(
          value instanceof byte[] raw
              ? new String(raw, StandardCharsets.UTF_8)
              : String.valueOf(value));
    }
    return shown.toString();
  }
}
