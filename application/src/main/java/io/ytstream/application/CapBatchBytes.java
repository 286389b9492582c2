package io.ytstream.application;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.BatchPlan;
import io.ytstream.core.plan.ByteBudget;
import io.ytstream.core.plan.CumulativeWeights;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Caps a planned batch by data weight ({@code max_bytes_per_partition}, {@code
 * max_bytes_per_trigger}): core's {@link ByteBudget} decides the ends, and this class reads the
 * values it asks for, the queue's {@code $cumulative_data_weight} (each row's value is the data
 * weight of its tablet's rows up to and including it, {@code
 * yt/yt/server/node/tablet_node/ordered_dynamic_store.cpp}, {@code WriteRow}).
 *
 * <p>A value is read with a one-row pull through the consumer at that row index ({@code
 * pull_queue_consumer} has no column filter, so the row's data comes along). Per range the reads
 * are the value before its first row, the value at its last row, and a bisection only where a cap
 * cuts the range: at most {@code 3 * ceil(log2(rows)) + 3} pulls of one row, {@code rows} at most
 * {@code max_rows_per_partition}. Values read in one trigger are not read twice, and the value at
 * each planned end is remembered, so the next batch, which starts there, does not read its base
 * again.
 *
 * <p>The base of a range whose row before it is trimmed is unknown until this class has read the
 * range's first row; core then makes the batch that one row (so a query that starts, or restarts,
 * where the queue is trimmed spends one small batch per such partition).
 */
public final class CapBatchBytes {

  private final QueuePartitionReader reader;
  private final ConsumerId consumer;

  /** Values read at earlier triggers, per partition: at most the last base and the last end. */
  private final Map<PartitionId, TreeMap<Long, Long>> remembered = new TreeMap<>();

  public CapBatchBytes(QueuePartitionReader reader, ConsumerId consumer) {
    this.reader = Objects.requireNonNull(reader, "reader");
    this.consumer = Objects.requireNonNull(consumer, "consumer");
  }

  /**
   * The end of {@code plan} under the caps: {@code plan.end()} with each range's end lowered.
   *
   * @param options the options that set the caps, as the user wrote them, for an error
   * @throws IllegalArgumentException naming {@code options} when the queue's rows carry no {@code
   *     $cumulative_data_weight}
   */
  public synchronized StreamOffsets cap(
      BatchPlan plan, OptionalLong perPartition, OptionalLong perTrigger, String options) {
    List<OffsetRange> ranges = plan.ranges();
    if (ranges.isEmpty() || (perPartition.isEmpty() && perTrigger.isEmpty())) {
      return plan.end();
    }
    int n = ranges.size();
    long[] lowers = new long[n];
    long[] uppers = new long[n];
    long[] bases = new long[n];
    List<Values> read = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      OffsetRange range = ranges.get(i);
      lowers[i] = range.lower();
      uppers[i] = range.upper();
      Values values = new Values(remembered.getOrDefault(range.partition(), new TreeMap<>()));
      read.add(values);
      bases[i] = base(range.partition(), range.lower(), values, options);
    }
    CumulativeWeights weights =
        (i, rowIndex) -> valueAt(ranges.get(i).partition(), rowIndex, read.get(i), options);
    long[] ends = ByteBudget.cap(lowers, uppers, bases, weights, perPartition, perTrigger);
    StreamOffsets end = plan.end();
    for (int i = 0; i < n; i++) {
      PartitionId partition = ranges.get(i).partition();
      end = end.with(partition, ends[i]);
      TreeMap<Long, Long> keep = new TreeMap<>();
      if (bases[i] != ByteBudget.UNKNOWN && lowers[i] > 0) {
        keep.put(lowers[i] - 1, bases[i]);
      }
      if (ends[i] > lowers[i]) {
        // Only a value read at its own row: a stand-in for a row trimmed since would make the
        // next batch's base too high and its bytes too low.
        Long last = read.get(i).exact(partition, ends[i] - 1, this, options);
        if (last != null) {
          keep.put(ends[i] - 1, last);
        }
      }
      remembered.put(partition, keep);
    }
    return end;
  }

  /**
   * The values of one range read in this trigger: those read at their own row, and stand-ins for
   * rows trimmed since (the next row's value, or {@link Long#MAX_VALUE} when no row is left), which
   * keep the values growing and only make the batch smaller.
   */
  private static final class Values {
    final TreeMap<Long, Long> exact;
    final TreeMap<Long, Long> standIns = new TreeMap<>();

    Values(TreeMap<Long, Long> remembered) {
      exact = new TreeMap<>(remembered);
    }

    /** The value at {@code rowIndex} as read there, pulling it if needed; null if trimmed. */
    Long exact(PartitionId partition, long rowIndex, CapBatchBytes from, String options) {
      if (!exact.containsKey(rowIndex) && !standIns.containsKey(rowIndex)) {
        from.pullInto(this, partition, rowIndex, options);
      }
      return exact.get(rowIndex);
    }
  }

  /** The value before row {@code lower}: 0 at row 0, else row {@code lower - 1}'s if readable. */
  private long base(PartitionId partition, long lower, Values values, String options) {
    if (lower == 0) {
      return 0;
    }
    Long value = values.exact(partition, lower - 1, this, options);
    return value == null ? ByteBudget.UNKNOWN : value;
  }

  /** The value at {@code rowIndex}, or its stand-in. */
  private long valueAt(PartitionId partition, long rowIndex, Values values, String options) {
    Long known = values.exact(partition, rowIndex, this, options);
    return known != null ? known : values.standIns.get(rowIndex);
  }

  /** One pull of one row at {@code rowIndex}. */
  private void pullInto(Values values, PartitionId partition, long rowIndex, String options) {
    List<QueueRow> rows = reader.pull(consumer, partition, rowIndex, 1);
    if (rows.isEmpty()) {
      values.standIns.put(rowIndex, Long.MAX_VALUE);
      return;
    }
    QueueRow row = rows.get(0);
    long value = valueOf(row, partition, options);
    values.exact.put(row.rowIndex(), value);
    if (row.rowIndex() != rowIndex) {
      values.standIns.put(rowIndex, value);
    }
  }

  private static long valueOf(QueueRow row, PartitionId partition, String options) {
    if (row.cumulativeDataWeight().isEmpty()) {
      throw missingColumn(options, partition.queue().path().value());
    }
    return row.cumulativeDataWeight().getAsLong();
  }

  /** The error for a byte cap on a queue whose schema has no {@code $cumulative_data_weight}. */
  public static IllegalArgumentException missingColumn(String options, String queuePath) {
    return new IllegalArgumentException(
        "option "
            + options
            + " caps a batch by the rows' $cumulative_data_weight, but queue "
            + queuePath
            + " does not declare $cumulative_data_weight in its schema, so its rows carry no"
            + " data weight to measure. Add a {name=\"$cumulative_data_weight\"; type=int64}"
            + " column to the queue's schema, or cap batches by rows with max_rows_per_trigger /"
            + " max_rows_per_partition instead");
  }
}
