package io.ytstream.inmemory;

import com.google.common.base.Preconditions;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * One tablet (partition) of an ordered table: rows with dense {@code $row_index} values, of which
 * {@code [trimmedRowCount, totalRowCount)} are still readable. Trimmed rows are dropped from
 * memory; numbering never shifts.
 */
final class OrderedTablet {

  /** Rows from {@link #firstStoredIndex} on; trimmed rows are removed from the front. */
  private final ArrayList<StoredQueueRow> rows = new ArrayList<>();

  /**
   * The stored rows held flat for pulls that read text as bytes ({@link #readFlat}), by chunk
   * number ({@code $row_index >>> FlatRowsChunk.SHIFT}); made on the first such pull that reaches
   * them, dropped with the trimmed rows.
   */
  private final NavigableMap<Long, FlatRowsChunk> flat = new TreeMap<>();

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

  /**
   * As {@link #read}, held flat: the rows from {@code max(offset, trimmed)} on, at most {@code
   * limit} and none past the end of the chunk of the first; null when there are none, or when the
   * first is of another layout than the rows before it in its chunk (then {@link #read} serves).
   */
  FlatRowsBatch readFlat(
      int tabletIndex,
      long offset,
      int limit,
      Set<String> textColumns,
      boolean withTimestamps,
      boolean withWeights) {
    long from = Math.max(offset, trimmedRowCount);
    long total = totalRowCount();
    if (from >= total) {
      return null;
    }
    long chunkNumber = from >>> FlatRowsChunk.SHIFT;
    long to = Math.min(total, Math.min(from + limit, (chunkNumber + 1) << FlatRowsChunk.SHIFT));
    FlatRowsChunk chunk = flat.get(chunkNumber);
    // A chunk whose filled rows end below a later trim cannot go on: it starts again there.
    if (chunk == null || chunk.filledEnd() < firstStoredIndex) {
      long first = Math.max(chunkNumber << FlatRowsChunk.SHIFT, firstStoredIndex);
      chunk = new FlatRowsChunk(first, stored(first).data().layout(), textColumns);
      flat.put(chunkNumber, chunk);
    }
    while (chunk.filledEnd() < to) {
      if (!chunk.fill(stored(chunk.filledEnd()))) {
        to = chunk.filledEnd();
        break;
      }
    }
    if (to <= from) {
      return null;
    }
    return chunk.batch(tabletIndex, from, to, withTimestamps, withWeights);
  }

  /** How many chunks of rows are held flat. */
  int flatChunks() {
    return flat.size();
  }

  private StoredQueueRow stored(long rowIndex) {
    return rows.get(Math.toIntExact(rowIndex - firstStoredIndex));
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
    flat.headMap(trimmedRowCount >>> FlatRowsChunk.SHIFT).clear();
  }
}
