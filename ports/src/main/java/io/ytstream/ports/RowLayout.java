package io.ytstream.ports;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The column names of rows, in column order, with each name's position. Immutable and shared by all
 * rows built alike, so that a reader can resolve a column's position once per layout (compare
 * layouts by identity to cache) and then read values with {@link Row#valueAt(int)}. Layouts compare
 * by identity; {@link #sameNamesAs} compares their names.
 */
public final class RowLayout {

  private static final RowLayout EMPTY = new RowLayout(new String[0], new int[2]);

  private final String[] names;
  // Positions by name: open addressing on the names' hash codes, holding position + 1 (0 is
  // empty); length a power of two of at least twice the names. A lookup table, never iterated.
  private final int[] slots;
  private final List<String> nameList;

  /** The layout last derived by {@link #without}; reused while rows drop the same column. */
  private volatile Derived lastWithout;

  /** The layout last derived by {@link #with}; reused while rows add the same column. */
  private volatile Derived lastWith;

  private record Derived(String column, RowLayout layout) {}

  private RowLayout(String[] names, int[] slots) {
    this.names = names;
    this.slots = slots;
    this.nameList = List.of(names);
  }

  /** The layout of {@code names}, adopted without a copy; null when a name repeats. */
  static RowLayout adoptingOrNull(String[] names) {
    if (names.length == 0) {
      return EMPTY;
    }
    int[] slots = new int[Integer.highestOneBit(names.length * 4 - 1)];
    int mask = slots.length - 1;
    for (int i = 0; i < names.length; i++) {
      String name = Objects.requireNonNull(names[i], "column name");
      int h = home(name, mask);
      while (slots[h] != 0) {
        if (names[slots[h] - 1].equals(name)) {
          return null;
        }
        h = (h + 1) & mask;
      }
      slots[h] = i + 1;
    }
    return new RowLayout(names, slots);
  }

  private static int home(String name, int mask) {
    int h = name.hashCode();
    return (h ^ (h >>> 16)) & mask;
  }

  /** The layout of {@code names}, adopted without a copy. */
  private static RowLayout adopting(String[] names) {
    RowLayout layout = adoptingOrNull(names);
    if (layout == null) {
      throw new IllegalArgumentException(
          "column names must be distinct, got " + Arrays.toString(names));
    }
    return layout;
  }

  /** A layout of distinct, non-null names, in this order. */
  public static RowLayout of(String... names) {
    return adopting(names.clone());
  }

  /** A layout of distinct, non-null names, in this order. */
  public static RowLayout of(List<String> names) {
    return adopting(names.toArray(new String[0]));
  }

  public int size() {
    return names.length;
  }

  /** The name at {@code position}. */
  public String name(int position) {
    return names[position];
  }

  /** The names in column order (unmodifiable). */
  public List<String> names() {
    return nameList;
  }

  /** The position of {@code column}, or -1 when the layout has no such column. */
  public int positionOf(String column) {
    if (column == null) {
      return -1;
    }
    int mask = slots.length - 1;
    for (int h = home(column, mask); slots[h] != 0; h = (h + 1) & mask) {
      String name = names[slots[h] - 1];
      if (name.equals(column)) {
        return slots[h] - 1;
      }
    }
    return -1;
  }

  /** Whether this layout has exactly {@code names}, in this order. */
  boolean hasNames(String[] others) {
    return Arrays.equals(names, others);
  }

  /** This layout without {@code column} (which it must have). */
  RowLayout without(String column) {
    Derived last = lastWithout;
    if (last != null && last.column().equals(column)) {
      return last.layout();
    }
    int drop = positionOf(column);
    String[] kept = new String[names.length - 1];
    System.arraycopy(names, 0, kept, 0, drop);
    System.arraycopy(names, drop + 1, kept, drop, names.length - drop - 1);
    RowLayout derived = adopting(kept);
    lastWithout = new Derived(column, derived);
    return derived;
  }

  /** This layout with {@code column} (which it must not have) appended. */
  RowLayout with(String column) {
    Derived last = lastWith;
    if (last != null && last.column().equals(column)) {
      return last.layout();
    }
    String[] more = Arrays.copyOf(names, names.length + 1);
    more[names.length] = column;
    RowLayout derived = adopting(more);
    lastWith = new Derived(column, derived);
    return derived;
  }

  /** Whether {@code other} has the same names in the same order (layouts compare by identity). */
  public boolean sameNamesAs(RowLayout other) {
    return other == this || Arrays.equals(names, other.names);
  }

  @Override
  public String toString() {
    return nameList.toString();
  }
}
