package io.ytstream.ports;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * One table row: column name to value, in column order. Values are {@code null}, {@link Long},
 * {@link Double}, {@link Boolean}, {@link String}, {@code byte[]}, or lists and maps of these; a
 * {@code decimal} column holds a {@link java.math.BigDecimal} and a {@code yson} column any value
 * of yt-types' YSON model (also {@code YsonUint64}, {@code YsonAttributed}). Which value each
 * type_v3 type takes (uint64 as a {@code Long} holding the bits, composites as lists and maps) is
 * defined by {@code io.ytstream.types.value.YtValues}. Rows from {@link
 * QueuePartitionReader#pullKeepingTextBytes} may also hold a {@link TextSlice} for a text value.
 *
 * <p>A row is a {@link RowLayout} (the names, shared by rows built alike) and an array of values in
 * layout order. Readers of many rows resolve a column's position once per layout and use {@link
 * #valueAt(int)}; adapters that build many rows of one layout use {@link #adopting}. Equality is by
 * name and value, whatever the layout objects or the column order.
 */
public final class Row {

  /**
   * The layout {@link #of} built last: rows built one after another from the same names share it,
   * so that readers' per-layout caches hit. A race only costs a fresh layout.
   */
  private static volatile RowLayout recentLayout = RowLayout.of();

  private final RowLayout layout;
  private final Object[] values;

  private Row(RowLayout layout, Object[] values) {
    this.layout = layout;
    this.values = values;
  }

  /** A row from a map; the map's iteration order becomes the column order. */
  public static Row of(Map<String, ?> values) {
    String[] names = new String[values.size()];
    Object[] copy = new Object[names.length];
    int i = 0;
    for (Map.Entry<String, ?> e : values.entrySet()) {
      names[i] = Objects.requireNonNull(e.getKey(), "column name");
      copy[i] = e.getValue();
      i++;
    }
    return new Row(sharedLayout(names), copy);
  }

  /**
   * A row from alternating names and values: {@code Row.of("id", 1L, "payload", "a")}. A repeated
   * name keeps its first position and takes its last value.
   */
  public static Row of(Object... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("Row.of takes name/value pairs");
    }
    int n = namesAndValues.length / 2;
    String[] names = new String[n];
    Object[] values = new Object[n];
    for (int i = 0; i < n; i++) {
      names[i] = (String) Objects.requireNonNull(namesAndValues[2 * i], "column name");
      values[i] = namesAndValues[2 * i + 1];
    }
    RowLayout layout = recentLayout;
    if (!layout.hasNames(names)) {
      layout = RowLayout.adoptingOrNull(names);
      if (layout == null) {
        return withRepeatedNames(namesAndValues);
      }
      recentLayout = layout;
    }
    return new Row(layout, values);
  }

  /**
   * A row that adopts {@code values} (one per column of {@code layout}, in its order) without a
   * copy: the caller must not change the array afterwards. For adapters building many rows of one
   * layout.
   */
  public static Row adopting(RowLayout layout, Object[] values) {
    Objects.requireNonNull(layout, "layout");
    if (values.length != layout.size()) {
      throw new IllegalArgumentException(
          "a row of layout "
              + layout
              + " takes "
              + layout.size()
              + " values, got "
              + values.length);
    }
    return new Row(layout, values);
  }

  private static Row withRepeatedNames(Object[] namesAndValues) {
    LinkedHashMap<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      map.put((String) namesAndValues[i], namesAndValues[i + 1]);
    }
    return of(map);
  }

  private static RowLayout sharedLayout(String[] names) {
    RowLayout layout = recentLayout;
    if (layout.hasNames(names)) {
      return layout;
    }
    layout = RowLayout.adoptingOrNull(names);
    if (layout == null) {
      throw new IllegalStateException("a map has distinct keys");
    }
    recentLayout = layout;
    return layout;
  }

  /** The names of this row's columns; compare by identity to cache positions per layout. */
  public RowLayout layout() {
    return layout;
  }

  /** The value of the column at {@code position} in {@link #layout()}. */
  public Object valueAt(int position) {
    return values[position];
  }

  public Object get(String column) {
    int p = layout.positionOf(column);
    return p < 0 ? null : values[p];
  }

  public boolean has(String column) {
    return layout.positionOf(column) >= 0;
  }

  /** A copy with {@code column} set to {@code value} (appended when new). */
  public Row with(String column, Object value) {
    int p = layout.positionOf(Objects.requireNonNull(column, "column name"));
    if (p >= 0) {
      Object[] copy = values.clone();
      copy[p] = value;
      return new Row(layout, copy);
    }
    Object[] copy = Arrays.copyOf(values, values.length + 1);
    copy[values.length] = value;
    return new Row(layout.with(column), copy);
  }

  /** A copy without {@code column}. */
  public Row without(String column) {
    int p = layout.positionOf(column);
    if (p < 0) {
      return this;
    }
    Object[] kept = new Object[values.length - 1];
    System.arraycopy(values, 0, kept, 0, p);
    System.arraycopy(values, p + 1, kept, p, values.length - p - 1);
    return new Row(layout.without(column), kept);
  }

  /** The row as an unmodifiable map in column order (a view, not a copy). */
  public Map<String, Object> asMap() {
    return new MapView();
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Row other) || values.length != other.values.length) {
      return false;
    }
    if (layout.sameNamesAs(other.layout)) {
      for (int i = 0; i < values.length; i++) {
        if (!RowValues.deepEquals(values[i], other.values[i])) {
          return false;
        }
      }
      return true;
    }
    for (int i = 0; i < values.length; i++) {
      int p = other.layout.positionOf(layout.name(i));
      if (p < 0 || !RowValues.deepEquals(values[i], other.values[p])) {
        return false;
      }
    }
    return true;
  }

  /** As {@link Map#hashCode()} with values hashed deeply: independent of the column order. */
  @Override
  public int hashCode() {
    int h = 0;
    for (int i = 0; i < values.length; i++) {
      h += layout.name(i).hashCode() ^ RowValues.deepHash(values[i]);
    }
    return h;
  }

  @Override
  public String toString() {
    return asMap().toString();
  }

  /** {@link #asMap()}: the names and values, read-only. */
  private final class MapView extends AbstractMap<String, Object> {

    @Override
    public int size() {
      return values.length;
    }

    @Override
    public boolean containsKey(Object key) {
      return key instanceof String name && has(name);
    }

    @Override
    public Object get(Object key) {
      return key instanceof String name ? Row.this.get(name) : null;
    }

    @Override
    public Set<Map.Entry<String, Object>> entrySet() {
      return new AbstractSet<>() {
        @Override
        public int size() {
          return values.length;
        }

        @Override
        public Iterator<Map.Entry<String, Object>> iterator() {
          return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
              return next < values.length;
            }

            @Override
            public Map.Entry<String, Object> next() {
              if (next >= values.length) {
                throw new NoSuchElementException();
              }
              int i = next++;
              return new AbstractMap.SimpleImmutableEntry<>(layout.name(i), values[i]);
            }
          };
        }
      };
    }
  }
}
