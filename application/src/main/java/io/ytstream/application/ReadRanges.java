package io.ytstream.application;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.plan.DataLoss;
import io.ytstream.core.plan.DataLossException;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.ports.QueueMetadata;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueRangeReader;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.QueueRowBatch;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * Reads one task's ranges, row by row, in short pulls through the consumer (a stream's batch), or
 * without one (a static read, {@link #withoutConsumer}).
 *
 * <ul>
 *   <li>A pull that starts past the offset asked for means rows were trimmed before being read:
 *       data loss. It fails the read under {@link DataLossPolicy#FAIL}; otherwise the rows are
 *       skipped and reported to {@link LostRows}, trimmed between planning and reading or not.
 *   <li>An empty pull before the range's end is data loss when the partition's trimmed row count is
 *       past the offset asked for (everything up to it was trimmed), and an error otherwise: the
 *       rows the plan saw are gone.
 *   <li>Within a pull, row indexes must be contiguous; a gap there is an error.
 *   <li>Rows at or past a range's end belong to a later batch and are never returned.
 * </ul>
 */
@DrivingUseCase
public final class ReadRanges {

  /** One pull of a partition, through the consumer or not. */
  private interface Pull {
    QueueRowBatch pull(PartitionId partition, long offset, int maxRows);
  }

  private final Pull reader;
  private final QueueMetadata metadata;
  private final Iterator<OffsetRange> ranges;
  private final int pullRows;
  private final DataLossPolicy policy;
  private final LostRows lostRows;

  private OffsetRange range;
  private long next;

  /** The rows of the last pull; {@code [bufferNext, bufferEnd)} are still to be returned. */
  private QueueRowBatch buffer = QueueRowBatch.of(List.of());

  private int bufferNext;
  private int bufferEnd;
  private int current = -1;

  /** A static read's task: the same reads with {@code pull_queue}, no consumer. */
  public static ReadRanges withoutConsumer(
      QueueRangeReader reader,
      QueueMetadata metadata,
      List<OffsetRange> ranges,
      int pullRows,
      DataLossPolicy policy,
      LostRows lostRows) {
    Objects.requireNonNull(reader, "reader");
    return new ReadRanges(
        (partition, offset, maxRows) -> QueueRowBatch.of(reader.pull(partition, offset, maxRows)),
        metadata,
        ranges,
        pullRows,
        policy,
        lostRows);
  }

  /**
   * A streaming task's reads through {@code consumer}, each pull through {@link
   * QueuePartitionReader#pullBatchKeepingTextBytes}: for a caller that walks the rows with {@link
   * #advance} and reads them from {@link #batch()}, so an adapter's flat answer is never turned
   * into a row object per row.
   */
  public static ReadRanges keepingTextBytes(
      QueuePartitionReader reader,
      QueueMetadata metadata,
      ConsumerId consumer,
      List<OffsetRange> ranges,
      int pullRows,
      DataLossPolicy policy,
      LostRows lostRows) {
    Objects.requireNonNull(reader, "reader");
    Objects.requireNonNull(consumer, "consumer");
    return new ReadRanges(
        (partition, offset, maxRows) ->
            reader.pullBatchKeepingTextBytes(consumer, partition, offset, maxRows),
        metadata,
        ranges,
        pullRows,
        policy,
        lostRows);
  }

  private ReadRanges(
      Pull reader,
      QueueMetadata metadata,
      List<OffsetRange> ranges,
      int pullRows,
      DataLossPolicy policy,
      LostRows lostRows) {
    if (pullRows < 1) {
      throw new IllegalArgumentException("pullRows must be >= 1, got " + pullRows);
    }
    this.reader = reader;
    this.metadata = Objects.requireNonNull(metadata, "metadata");
    this.ranges = List.copyOf(ranges).iterator();
    this.pullRows = pullRows;
    this.policy = Objects.requireNonNull(policy, "policy");
    this.lostRows = Objects.requireNonNull(lostRows, "lostRows");
  }

  /** The range the last returned row belongs to (null before the first row). */
  public OffsetRange currentRange() {
    return range;
  }

  /** The next row, or null once every range is read. */
  public QueueRow next() {
    return advance() ? buffer.row(current) : null;
  }

  /**
   * Moves to the next row, which is then row {@link #index()} of {@link #batch()}; false once every
   * range is read.
   */
  public boolean advance() {
    while (true) {
      if (bufferNext < bufferEnd) {
        int at = bufferNext++;
        long rowIndex = buffer.rowIndex(at);
        if (rowIndex != next) {
          throw new IllegalStateException(
              "rows of "
                  + range.partition()
                  + " are not contiguous: expected $row_index "
                  + next
                  + ", got "
                  + rowIndex);
        }
        next++;
        current = at;
        return true;
      }
      if (range == null || next >= range.upper()) {
        if (!ranges.hasNext()) {
          return false;
        }
        range = ranges.next();
        next = range.lower();
        continue;
      }
      pull();
    }
  }

  /** The pull the row {@link #advance} moved to belongs to. */
  public QueueRowBatch batch() {
    return buffer;
  }

  /** The index in {@link #batch()} of the row {@link #advance} moved to. */
  public int index() {
    return current;
  }

  /** Every remaining row, in order. */
  public List<QueueRow> readAll() {
    List<QueueRow> rows = new ArrayList<>();
    for (QueueRow row = next(); row != null; row = next()) {
      rows.add(row);
    }
    return rows;
  }

  private void pull() {
    int want = (int) Math.min(pullRows, range.upper() - next);
    PartitionId partition = range.partition();
    QueueRowBatch rows = reader.pull(partition, next, want);
    long first;
    if (rows.size() == 0) {
      long trimmed = trimmedRowCount(partition);
      if (trimmed <= next) {
        throw new IllegalStateException(
            "partition "
                + partition
                + " has no rows at "
                + next
                + " although the batch planned rows up to "
                + range.upper()
                + " and only "
                + trimmed
                + " are trimmed: the queue was re-created or edited under the query");
      }
      first = Math.min(trimmed, range.upper());
    } else {
      first = Math.min(rows.rowIndex(0), range.upper());
    }
    if (first > next) {
      skipped(new DataLoss(partition, next, first));
      next = first;
    }
    int end = rows.size();
    while (end > 0 && rows.rowIndex(end - 1) >= range.upper()) {
      end--;
    }
    buffer = rows;
    bufferNext = 0;
    bufferEnd = end;
  }

  private long trimmedRowCount(PartitionId partition) {
    for (PartitionBounds b : metadata.partitions(partition.queue())) {
      if (b.index() == partition.index()) {
        return b.trimmedRowCount();
      }
    }
    return 0;
  }

  private void skipped(DataLoss loss) {
    if (policy == DataLossPolicy.FAIL) {
      throw new DataLossException(List.of(loss));
    }
    lostRows.skipped(loss);
  }
}
