package io.ytstream.inmemory;

import io.ytstream.ports.Row;
import io.ytstream.ports.RowLayout;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;

/**
 * {@link #ROWS} consecutive rows of an ordered tablet held flat, as a real server sends a pull: one
 * array per column, int64 values unboxed and text as its UTF-8 bytes. Filled from the tablet's
 * stored rows on the first pull that reaches them and kept, so a reader of bytes walks arrays in
 * order rather than each stored row's objects, and pays no encoding per read that no real cluster
 * makes it pay.
 *
 * <p>Filled only under the cluster's lock, and only ever appended to: a slot once filled never
 * changes, and a grown array is a new array, so a {@link FlatRowsBatch} holding the arrays it was
 * given reads them after the lock is released and sees what the pull saw.
 */
final class FlatRowsChunk {

  /** Rows per chunk: a power of two, so a row's chunk is its index shifted. */
  static final int SHIFT = 14;

  static final int ROWS = 1 << SHIFT;

  /** In {@link #objects}: the value is the int64 in {@link #longs} at the same place. */
  static final Object LONG_HELD = new Object();

  private static final int FIRST_CAPACITY = 256;

  private final long firstRowIndex;
  private final RowLayout layout;
  private final boolean[] text;
  private Object[][] objects;
  private long[][] longs;
  private long[] timestamps;
  private long[] weights;
  private int filled;

  /**
   * @param firstRowIndex the {@code $row_index} of the chunk's first row: a multiple of {@link
   *     #ROWS}, or the tablet's first stored row when a trim removed the rows before it
   * @param layout the layout of every row the chunk holds
   * @param textColumns the columns whose values are text ({@code string}, {@code utf8})
   */
  FlatRowsChunk(long firstRowIndex, RowLayout layout, Set<String> textColumns) {
    this.firstRowIndex = firstRowIndex;
    this.layout = layout;
    int width = layout.size();
    text = new boolean[width];
    for (int p = 0; p < width; p++) {
      text[p] = textColumns.contains(layout.name(p));
    }
    objects = new Object[width][FIRST_CAPACITY];
    longs = new long[width][];
    timestamps = new long[FIRST_CAPACITY];
    weights = new long[FIRST_CAPACITY];
  }

  /** The {@code $row_index} after the last row filled. */
  long filledEnd() {
    return firstRowIndex + filled;
  }

  /**
   * Appends {@code row}, the row at {@link #filledEnd()}; false, changing nothing, when its layout
   * is not the chunk's (a row not in the table's own layout).
   */
  boolean fill(StoredQueueRow row) {
    Row data = row.data();
    if (data.layout() != layout) {
      return false;
    }
    int at = filled;
    if (at == timestamps.length) {
      grow();
    }
    for (int p = 0; p < text.length; p++) {
      Object v = data.valueAt(p);
      if (v instanceof Long l) {
        long[] column = longs[p];
        if (column == null) {
          column = new long[timestamps.length];
          longs[p] = column;
        }
        column[at] = l;
        v = LONG_HELD;
      } else if (text[p] && v instanceof String s) {
        v = s.getBytes(StandardCharsets.UTF_8);
      }
      objects[p][at] = v;
    }
    timestamps[at] = row.timestamp();
    weights[at] = row.cumulativeDataWeight();
    filled = at + 1;
    return true;
  }

  /** Rows {@code [from, to)} of the filled ones, by {@code $row_index}. */
  FlatRowsBatch batch(
      int tabletIndex, long from, long to, boolean withTimestamps, boolean withWeights) {
    int start = Math.toIntExact(from - firstRowIndex);
    int end = Math.toIntExact(to - firstRowIndex);
    if (start < 0 || end > filled || start > end) {
      throw new IllegalArgumentException(
          "rows [" + from + ", " + to + ") are not all filled in the chunk from " + firstRowIndex);
    }
    return new FlatRowsBatch(
        tabletIndex,
        from,
        start,
        end - start,
        layout,
        objects.clone(),
        longs.clone(),
        withTimestamps ? timestamps : null,
        withWeights ? weights : null);
  }

  private void grow() {
    int capacity = Math.min(ROWS, timestamps.length * 2);
    for (int p = 0; p < objects.length; p++) {
      objects[p] = Arrays.copyOf(objects[p], capacity);
      if (longs[p] != null) {
        longs[p] = Arrays.copyOf(longs[p], capacity);
      }
    }
    timestamps = Arrays.copyOf(timestamps, capacity);
    weights = Arrays.copyOf(weights, capacity);
  }
}
