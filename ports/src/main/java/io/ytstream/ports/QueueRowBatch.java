package io.ytstream.ports;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.RandomAccess;

/**
 * The rows of one pull, read by index: what {@link QueuePartitionReader#pullBatchKeepingTextBytes}
 * returns. An adapter may hold an answer flat (its values in arrays per column, text as ranges of
 * the answer's bytes), so a reader that walks it row by row makes no object per row; {@link
 * #row(int)} builds the port's {@link QueueRow}, equal to what {@link
 * QueuePartitionReader#pullKeepingTextBytes} returns at that index.
 *
 * <p>The unboxed accessors are shortcuts: {@link #longAt} is defined only where {@link #hasLongAt}
 * is true (an int64 value held unboxed), {@link #textArray}/{@link #textOffset} only where {@link
 * #textLength} is not -1 (text held as bytes that are never changed). Elsewhere {@link #valueAt}
 * gives the value.
 */
public interface QueueRowBatch {

  int size();

  /** The port's row at {@code row}. */
  QueueRow row(int row);

  long rowIndex(int row);

  int tabletIndex(int row);

  /** The names of the data columns at {@code row}; rows built alike share the object. */
  RowLayout layout(int row);

  /** The value of data column {@code position} of {@link #layout}, as {@link Row#valueAt}. */
  Object valueAt(int row, int position);

  OptionalLong timestamp(int row);

  OptionalLong cumulativeDataWeight(int row);

  /** Whether {@link #longAt} holds this value (a non-null int64). */
  default boolean hasLongAt(int row, int position) {
    return false;
  }

  default long longAt(int row, int position) {
    return (Long) valueAt(row, position);
  }

  /** The length of a text value held as a range of {@link #textArray}, or -1 when it is not. */
  default int textLength(int row, int position) {
    return -1;
  }

  default byte[] textArray(int row, int position) {
    throw new IllegalStateException("no text range at " + row + "/" + position);
  }

  default int textOffset(int row, int position) {
    throw new IllegalStateException("no text range at " + row + "/" + position);
  }

  /** Every row as the port's {@link QueueRow}, in order. */
  default List<QueueRow> rows() {
    List<QueueRow> rows = new ArrayList<>(size());
    for (int i = 0; i < size(); i++) {
      rows.add(row(i));
    }
    return rows;
  }

  /** A batch over rows already built; the list is read, not copied, and must not change. */
  static QueueRowBatch of(List<QueueRow> rows) {
    Objects.requireNonNull(rows, "rows");
    List<QueueRow> list = rows instanceof RandomAccess ? rows : new ArrayList<>(rows);
    return new QueueRowBatch() {
      @Override
      public int size() {
        return list.size();
      }

      @Override
      public QueueRow row(int row) {
        return list.get(row);
      }

      @Override
      public long rowIndex(int row) {
        return list.get(row).rowIndex();
      }

      @Override
      public int tabletIndex(int row) {
        return list.get(row).tabletIndex();
      }

      @Override
      public RowLayout layout(int row) {
        return list.get(row).data().layout();
      }

      @Override
      public Object valueAt(int row, int position) {
        return list.get(row).data().valueAt(position);
      }

      @Override
      public OptionalLong timestamp(int row) {
        return list.get(row).timestamp();
      }

      @Override
      public OptionalLong cumulativeDataWeight(int row) {
        return list.get(row).cumulativeDataWeight();
      }
    };
  }
}
