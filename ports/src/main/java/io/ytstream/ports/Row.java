package io.ytstream.ports;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One table row: column name to value, in column order. Values are {@code null}, {@link Long},
 * {@link Double}, {@link Boolean}, {@link String}, {@code byte[]}, or lists and maps of these; a
 * {@code decimal} column holds a {@link java.math.BigDecimal} and a {@code yson} column any value
 * of core's YSON model (also {@code YsonUint64}, {@code YsonAttributed}). Which value each type_v3
 * type takes (uint64 as a {@code Long} holding the bits, composites as lists and maps) is defined
 * by {@code io.ytstream.core.schema.YtValues}.
 */
public final class Row {

  private final Map<String, Object> values;

  private Row(Map<String, Object> values) {
    this.values = Collections.unmodifiableMap(values);
  }

  /** A row from a map; the map's iteration order becomes the column order. */
  public static Row of(Map<String, ?> values) {
    LinkedHashMap<String, Object> copy = new LinkedHashMap<>();
    values.forEach((k, v) -> copy.put(Objects.requireNonNull(k, "column name"), v));
    return new Row(copy);
  }

  /** A row from alternating names and values: {@code Row.of("id", 1L, "payload", "a")}. */
  public static Row of(Object... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("Row.of takes name/value pairs");
    }
    LinkedHashMap<String, Object> copy = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      copy.put(
          (String) Objects.requireNonNull(namesAndValues[i], "column name"), namesAndValues[i + 1]);
    }
    return new Row(copy);
  }

  public Object get(String column) {
    return values.get(column);
  }

  public boolean has(String column) {
    return values.containsKey(column);
  }

  /** A copy with {@code column} set to {@code value} (appended when new). */
  public Row with(String column, Object value) {
    LinkedHashMap<String, Object> copy = new LinkedHashMap<>(values);
    copy.put(column, value);
    return new Row(copy);
  }

  /** A copy without {@code column}. */
  public Row without(String column) {
    LinkedHashMap<String, Object> copy = new LinkedHashMap<>(values);
    copy.remove(column);
    return new Row(copy);
  }

  public Map<String, Object> asMap() {
    return values;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Row other && RowValues.deepEquals(values, other.values);
  }

  @Override
  public int hashCode() {
    return RowValues.deepHash(values);
  }

  @Override
  public String toString() {
    return values.toString();
  }
}
