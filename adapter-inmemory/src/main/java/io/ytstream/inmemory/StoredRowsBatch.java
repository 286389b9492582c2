package io.ytstream.inmemory;

import io.ytstream.ports.QueueRow;
import io.ytstream.ports.QueueRowBatch;
import io.ytstream.ports.Row;
import io.ytstream.ports.RowLayout;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * One pull's stored rows read by index, their text as the UTF-8 bytes each stored row keeps ({@link
 * StoredQueueRow#textBytes}): a reader that walks it makes no {@link QueueRow} or {@code
 * OptionalLong} per row, as it makes none over a real server's flat answer. The rows are the
 * tablet's, read under the cluster's lock; a stored row never changes, so reading them after the
 * lock is released sees what the pull saw. Serves the pulls a {@link FlatRowsChunk} cannot: rows of
 * another layout than those before them in their chunk.
 */
final class StoredRowsBatch implements QueueRowBatch {

  private final int tabletIndex;
  private final Row[] data;
  private final long[] rowIndexes;
  private final long[] timestamps;
  private final long[] weights;

  /**
   * @param timestamps whether the table declares {@code $timestamp}
   * @param weights whether it declares {@code $cumulative_data_weight}
   */
  StoredRowsBatch(
      int tabletIndex,
      List<StoredQueueRow> stored,
      Set<String> textColumns,
      boolean timestamps,
      boolean weights) {
    this.tabletIndex = tabletIndex;
    int n = stored.size();
    data = new Row[n];
    rowIndexes = new long[n];
    this.timestamps = timestamps ? new long[n] : null;
    this.weights = weights ? new long[n] : null;
    for (int i = 0; i < n; i++) {
      StoredQueueRow row = stored.get(i);
      data[i] = row.textBytes(textColumns);
      rowIndexes[i] = row.rowIndex();
      if (timestamps) {
        this.timestamps[i] = row.timestamp();
      }
      if (weights) {
        this.weights[i] = row.cumulativeDataWeight();
      }
    }
  }

  @Override
  public int size() {
    return data.length;
  }

  @Override
  public QueueRow row(int row) {
    return new QueueRow(
        tabletIndex, rowIndexes[row], data[row], timestamp(row), cumulativeDataWeight(row));
  }

  @Override
  public long rowIndex(int row) {
    return rowIndexes[row];
  }

  @Override
  public int tabletIndex(int row) {
    return tabletIndex;
  }

  @Override
  public RowLayout layout(int row) {
    return data[row].layout();
  }

  @Override
  public Object valueAt(int row, int position) {
    return data[row].valueAt(position);
  }

  @Override
  public OptionalLong timestamp(int row) {
    return timestamps == null ? OptionalLong.empty() : OptionalLong.of(timestamps[row]);
  }

  @Override
  public OptionalLong cumulativeDataWeight(int row) {
    return weights == null ? OptionalLong.empty() : OptionalLong.of(weights[row]);
  }

  @Override
  public boolean hasLongAt(int row, int position) {
    return data[row].valueAt(position) instanceof Long;
  }

  @Override
  public long longAt(int row, int position) {
    return (Long) data[row].valueAt(position);
  }

  // A text value is a whole byte[] the stored row keeps and never changes.
  @Override
  public int textLength(int row, int position) {
    return data[row].valueAt(position) instanceof byte[] bytes ? bytes.length : -1;
  }

  @Override
  public byte[] textArray(int row, int position) {
    return (byte[]) data[row].valueAt(position);
  }

  @Override
  public int textOffset(int row, int position) {
    return 0;
  }
}
