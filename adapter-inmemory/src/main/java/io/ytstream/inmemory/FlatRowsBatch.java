package io.ytstream.inmemory;

import io.ytstream.ports.QueueRow;
import io.ytstream.ports.QueueRowBatch;
import io.ytstream.ports.Row;
import io.ytstream.ports.RowLayout;
import java.util.OptionalLong;

/**
 * One pull's rows read from a {@link FlatRowsChunk}: the chunk's arrays as they were when the pull
 * was made, from {@code start} on. Nothing is copied per pull and nothing made per row; {@link
 * #row} builds a row only for a caller that asks for one.
 */
final class FlatRowsBatch implements QueueRowBatch {

  private final int tabletIndex;
  private final long firstRowIndex;
  private final int start;
  private final int size;
  private final RowLayout layout;
  private final Object[][] objects;
  private final long[][] longs;
  private final long[] timestamps;
  private final long[] weights;

  FlatRowsBatch(
      int tabletIndex,
      long firstRowIndex,
      int start,
      int size,
      RowLayout layout,
      Object[][] objects,
      long[][] longs,
      long[] timestamps,
      long[] weights) {
    this.tabletIndex = tabletIndex;
    this.firstRowIndex = firstRowIndex;
    this.start = start;
    this.size = size;
    this.layout = layout;
    this.objects = objects;
    this.longs = longs;
    this.timestamps = timestamps;
    this.weights = weights;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public QueueRow row(int row) {
    Object[] values = new Object[layout.size()];
    for (int p = 0; p < values.length; p++) {
      values[p] = valueAt(row, p);
    }
    return new QueueRow(
        tabletIndex,
        rowIndex(row),
        Row.adopting(layout, values),
        timestamp(row),
        cumulativeDataWeight(row));
  }

  @Override
  public long rowIndex(int row) {
    return firstRowIndex + row;
  }

  @Override
  public int tabletIndex(int row) {
    return tabletIndex;
  }

  @Override
  public RowLayout layout(int row) {
    return layout;
  }

  @Override
  public Object valueAt(int row, int position) {
    Object v = objects[position][start + row];
    return v == FlatRowsChunk.LONG_HELD ? (Object) longs[position][start + row] : v;
  }

  @Override
  public OptionalLong timestamp(int row) {
    return timestamps == null ? OptionalLong.empty() : OptionalLong.of(timestamps[start + row]);
  }

  @Override
  public OptionalLong cumulativeDataWeight(int row) {
    return weights == null ? OptionalLong.empty() : OptionalLong.of(weights[start + row]);
  }

  @Override
  public boolean hasLongAt(int row, int position) {
    return objects[position][start + row] == FlatRowsChunk.LONG_HELD;
  }

  @Override
  public long longAt(int row, int position) {
    return longs[position][start + row];
  }

  // A text value is a whole byte[] the chunk keeps and never changes.
  @Override
  public int textLength(int row, int position) {
    return objects[position][start + row] instanceof byte[] bytes ? bytes.length : -1;
  }

  @Override
  public byte[] textArray(int row, int position) {
    return (byte[]) objects[position][start + row];
  }

  @Override
  public int textOffset(int row, int position) {
    return 0;
  }
}
