package io.ytstream.application;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YtTimestamps;
import io.ytstream.core.plan.QueueBounds;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * How far a query is behind its queues: per partition, the rows, bytes and seconds between the
 * offset consumed and the partition's end seen last.
 *
 * <ul>
 *   <li><b>Rows</b>: {@code total_row_count - offset}.
 *   <li><b>Bytes</b>, where the queue declares {@code $cumulative_data_weight} (each row's value is
 *       the data weight of the partition's rows up to and including it, {@code
 *       yt/yt/server/node/tablet_node/ordered_dynamic_store.cpp}, {@code WriteRow}): the newest
 *       row's value minus the value of the last row consumed (0 when nothing was consumed), as the
 *       queue agent's {@code unread_data_weight} ({@code
 *       yt/yt/server/queue_agent/consumer_controller.cpp}); unknown when that row was trimmed.
 *   <li><b>Seconds</b>, where the queue declares {@code $timestamp} (the row's commit timestamp):
 *       the newest row's second minus the oldest unread row's ({@link YtTimestamps}: a timestamp
 *       knows whole seconds only). Measured between rows, not against a clock, so it does not grow
 *       while an idle queue waits; the queue agent's {@code processing_lag} is now minus the oldest
 *       unread row's time instead.
 * </ul>
 *
 * <p>Cost: nothing for a partition with nothing unread or a queue that declares neither column;
 * otherwise one pull of two rows at the last consumed row (it and the oldest unread one) and, when
 * the newest row is not among them, one pull of one row at the end. A partition whose offset, end
 * and first readable row did not change since the last measurement is not read again.
 */
public final class MeasureLag {

  /** Which lag columns a queue declares. */
  public record LagColumns(boolean cumulativeDataWeight, boolean timestamp) {

    public static final LagColumns NONE = new LagColumns(false, false);

    boolean any() {
      return cumulativeDataWeight || timestamp;
    }
  }

  /** One partition's lag; bytes and seconds are empty where the queue does not tell them. */
  public record PartitionLag(
      PartitionId partition, long rows, OptionalLong bytes, OptionalLong seconds) {

    public PartitionLag {
      Objects.requireNonNull(partition, "partition");
      Objects.requireNonNull(bytes, "bytes");
      Objects.requireNonNull(seconds, "seconds");
    }
  }

  /** Every partition's lag, in partition order. */
  public record Lag(List<PartitionLag> partitions) {

    public Lag {
      partitions = List.copyOf(partitions);
    }

    /** Whether every partition has a byte figure (and there is at least one partition). */
    public boolean bytesKnown() {
      return !partitions.isEmpty() && partitions.stream().allMatch(p -> p.bytes().isPresent());
    }

    /** Whether every partition has a seconds figure (and there is at least one partition). */
    public boolean secondsKnown() {
      return !partitions.isEmpty() && partitions.stream().allMatch(p -> p.seconds().isPresent());
    }
  }

  private record Measured(long offset, long total, long trimmed, PartitionLag lag) {}

  private final QueuePartitionReader reader;
  private final ConsumerId consumer;
  private final Map<QueueId, LagColumns> columns;
  private final Map<PartitionId, Measured> last = new TreeMap<>();

  /**
   * @param columns the lag columns each queue declares; a queue not listed declares none
   */
  public MeasureLag(
      QueuePartitionReader reader, ConsumerId consumer, Map<QueueId, LagColumns> columns) {
    this.reader = Objects.requireNonNull(reader, "reader");
    this.consumer = Objects.requireNonNull(consumer, "consumer");
    this.columns = new TreeMap<>(columns);
  }

  /**
   * The lag of {@code consumed} behind {@code bounds}. A partition {@code consumed} does not know
   * counts from its first readable row.
   */
  public synchronized Lag measure(QueueBounds bounds, StreamOffsets consumed) {
    List<PartitionLag> out = new ArrayList<>(bounds.size());
    for (int i = 0; i < bounds.size(); i++) {
      PartitionId p = bounds.partitionAt(i);
      PartitionBounds b = bounds.boundsAt(i);
      long offset = consumed.getOrDefault(p, b.trimmedRowCount());
      Measured before = last.get(p);
      // A trim since changes the oldest unread row, and so the seconds behind.
      if (before != null
          && before.offset() == offset
          && before.total() == b.totalRowCount()
          && before.trimmed() == b.trimmedRowCount()) {
        out.add(before.lag());
        continue;
      }
      PartitionLag lag = measure(p, b, offset);
      last.put(p, new Measured(offset, b.totalRowCount(), b.trimmedRowCount(), lag));
      out.add(lag);
    }
    return new Lag(out);
  }

  private PartitionLag measure(PartitionId p, PartitionBounds b, long offset) {
    LagColumns declared = columns.getOrDefault(p.queue(), LagColumns.NONE);
    long rows = Math.max(0, b.totalRowCount() - offset);
    if (rows == 0) {
      return new PartitionLag(
          p, 0, zeroIf(declared.cumulativeDataWeight()), zeroIf(declared.timestamp()));
    }
    if (!declared.any()) {
      return new PartitionLag(p, rows, OptionalLong.empty(), OptionalLong.empty());
    }
    long newestIndex = b.totalRowCount() - 1;
    // The last consumed row (offset - 1) and the oldest unread one (offset), in one short pull;
    // a pull below the first readable row starts at it.
    List<QueueRow> near = reader.pull(consumer, p, Math.max(0, offset - 1), 2);
    QueueRow lastConsumed = find(near, offset - 1);
    QueueRow oldestUnread = firstAtOrAfter(near, offset);
    if (oldestUnread == null) {
      oldestUnread = firstAtOrAfter(reader.pull(consumer, p, offset, 1), offset);
    }
    QueueRow newest = find(near, newestIndex);
    if (newest == null) {
      newest = find(reader.pull(consumer, p, newestIndex, 1), newestIndex);
    }
    OptionalLong bytes = OptionalLong.empty();
    if (declared.cumulativeDataWeight() && newest != null) {
      OptionalLong base = offset == 0 ? OptionalLong.of(0) : weightOf(lastConsumed);
      if (base.isPresent() && newest.cumulativeDataWeight().isPresent()) {
        bytes = OptionalLong.of(newest.cumulativeDataWeight().getAsLong() - base.getAsLong());
      }
    }
    OptionalLong seconds = OptionalLong.empty();
    if (declared.timestamp()
        && newest != null
        && oldestUnread != null
        && newest.timestamp().isPresent()
        && oldestUnread.timestamp().isPresent()) {
      seconds =
          OptionalLong.of(
              Math.max(
                  0,
                  YtTimestamps.toEpochSecond(newest.timestamp().getAsLong())
                      - YtTimestamps.toEpochSecond(oldestUnread.timestamp().getAsLong())));
    }
    return new PartitionLag(p, rows, bytes, seconds);
  }

  private static OptionalLong zeroIf(boolean declared) {
    return declared ? OptionalLong.of(0) : OptionalLong.empty();
  }

  private static OptionalLong weightOf(QueueRow row) {
    return row == null ? OptionalLong.empty() : row.cumulativeDataWeight();
  }

  private static QueueRow find(List<QueueRow> rows, long rowIndex) {
    for (QueueRow r : rows) {
      if (r.rowIndex() == rowIndex) {
        return r;
      }
    }
    return null;
  }

  private static QueueRow firstAtOrAfter(List<QueueRow> rows, long rowIndex) {
    for (QueueRow r : rows) {
      if (r.rowIndex() >= rowIndex) {
        return r;
      }
    }
    return null;
  }
}
