package io.ytstream.inmemory;

import com.google.common.base.Preconditions;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One tablet (partition) of an ordered table: rows with dense {@code $row_index} values, of which
 * {@code [trimmedRowCount, totalRowCount)} are still readable. Trimmed rows are dropped from
 * memory; numbering never shifts.
 */
final class OrderedTablet {

  /** Rows from {@link #firstStoredIndex} on; trimmed rows are removed from the front. */
  private final ArrayList<StoredQueueRow> rows = new ArrayList<>();

  private long firstStoredIndex;
  private long trimmedRowCount;
  private long cumulativeDataWeight;

  OrderedTablet(long initialTrimmedRowCount) {
    Preconditions.checkArgument(
        initialTrimmedRowCount >= 0, "trimmed row count must be >= 0: %s", initialTrimmedRowCount);
    this.firstStoredIndex = initialTrimmedRowCount;
    this.trimmedRowCount = initialTrimmedRowCount;
  }

  long trimmedRowCount() {
    return trimmedRowCount;
  }

  /** The exclusive end: the index the next appended row gets. */
  long totalRowCount() {
    return firstStoredIndex + rows.size();
  }

  void append(Row data, long timestamp, long dataWeight) {
    cumulativeDataWeight += dataWeight;
    rows.add(new StoredQueueRow(totalRowCount(), data, timestamp, cumulativeDataWeight));
  }

  /**
   * Rows from {@code max(offset, trimmed)} on, at most {@code limit} of them: a view, valid only
   * until the tablet next changes (the caller holds the cluster's lock while it copies what it
   * needs), so that a pull copies each row once.
   */
  List<StoredQueueRow> read(long offset, int limit) {
    long from = Math.max(offset, trimmedRowCount);
    if (from >= totalRowCount()) {
      return List.of();
    }
    int start = Math.toIntExact(from - firstStoredIndex);
    int end = (int) Math.min(rows.size(), (long) start + limit);
    return Collections.unmodifiableList(rows.subList(start, end));
  }

  /** Absolute trim: afterwards rows below {@code max(old, newCount)} are gone. */
  void trim(long newTrimmedRowCount) {
    if (newTrimmedRowCount <= trimmedRowCount) {
      return;
    }
    trimmedRowCount = newTrimmedRowCount;
    int drop = Math.toIntExact(trimmedRowCount - firstStoredIndex);
    rows.subList(0, drop).clear();
    firstStoredIndex = trimmedRowCount;
  }
}
