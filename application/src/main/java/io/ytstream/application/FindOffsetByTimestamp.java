package io.ytstream.application;

import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YtTimestamps;
import io.ytstream.core.plan.QueueBounds;
import io.ytstream.ports.QueueRangeReader;
import io.ytstream.ports.QueueRow;
import java.util.List;
import java.util.Objects;

/**
 * Each partition's first row committed at or after a time: its offset, or the partition's end when
 * every row is older. The server has no index by time, so this is a binary search over row indexes
 * with one-row pulls ({@code log2(rows)} pulls per partition), comparing a row's {@code $timestamp}
 * with {@link YtTimestamps#lowestAtEpochMillis} (the server's own conversion: whole seconds).
 *
 * <p>The search takes {@code $timestamp} as non-decreasing along a tablet. A tablet appends rows in
 * commit order, and each row's {@code $timestamp} is its commit timestamp ({@code
 * ordered_dynamic_store.cpp}, {@code WriteRow}); under the default {@code commit_ordering=weak} two
 * concurrent commits may land out of timestamp order, so near such rows the offset found is one of
 * theirs, within the same second or so. A row written with its own {@code $timestamp} (a replica)
 * keeps it, which the search cannot order.
 */
public final class FindOffsetByTimestamp {

  private final QueueRangeReader reader;

  public FindOffsetByTimestamp(QueueRangeReader reader) {
    this.reader = Objects.requireNonNull(reader, "reader");
  }

  /** The offset of every partition of {@code bounds} for {@code epochMillis}. */
  public StreamOffsets offsets(QueueBounds bounds, long epochMillis, String option) {
    StreamOffsets.Builder out = StreamOffsets.builder(bounds.size());
    for (int i = 0; i < bounds.size(); i++) {
      out.add(
          bounds.partitionAt(i),
          offset(bounds.partitionAt(i), bounds.boundsAt(i), epochMillis, option));
    }
    return out.build();
  }

  /**
   * The first row of {@code partition} at or after {@code epochMillis}, within its bounds.
   *
   * @param option the option that asked, named when the queue's rows carry no {@code $timestamp}
   */
  public long offset(
      PartitionId partition, PartitionBounds bounds, long epochMillis, String option) {
    long target = YtTimestamps.lowestAtEpochMillis(epochMillis);
    long lo = bounds.trimmedRowCount();
    long hi = bounds.totalRowCount();
    while (lo < hi) {
      long mid = lo + (hi - lo) / 2;
      List<QueueRow> rows = reader.pull(partition, mid, 1);
      if (rows.isEmpty()) {
        // Rows the bounds listed at or after mid are gone: the queue was trimmed under the
        // search; what is left is after the time asked for, or there is nothing left.
        hi = mid;
        continue;
      }
      QueueRow row = rows.get(0);
      if (row.timestamp().isEmpty()) {
        throw new IllegalArgumentException(
            "option "
                + option
                + " needs $timestamp, but the rows of "
                + partition.queue().path()
                + " carry none: the queue's schema does not declare it. Use a row index"
                + " (starting_offsets / ending_offsets) instead");
      }
      if (Long.compareUnsigned(row.timestamp().getAsLong(), target) >= 0) {
        hi = mid;
      } else {
        lo = Math.max(mid, row.rowIndex()) + 1;
      }
    }
    return lo;
  }
}
