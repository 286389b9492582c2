package io.ytstream.core.plan;

import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.PartitionOrder;
import io.ytstream.core.model.StreamOffsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Plans one batch: for every partition {@code lower} = the start offset and {@code upper =
 * min(lower + max_rows_per_partition, end_of_partition)}, then the trigger's total cap; empty
 * partitions are skipped. (The output's per-tablet row limit is the sink's to check: the source
 * does not know the output.) Pure: no I/O, no clock; the same inputs give the same plan.
 */
public final class BatchPlanner {

  private BatchPlanner() {}

  /**
   * @param start offsets to start from (see {@link StartOffsetResolver}); a partition in {@code
   *     bounds} but not in {@code start} is new and starts at its first row
   * @throws DataLossException when rows were trimmed before being read and the policy is FAIL
   * @throws IllegalStateException when a start offset lies beyond the partition's end, which means
   *     the checkpoint or consumer belongs to another queue or was edited
   */
  public static BatchPlan plan(StreamOffsets start, QueueBounds bounds, PlanLimits limits) {
    return plan(start, bounds, limits, OptionalLong.empty());
  }

  /**
   * As {@link #plan(StreamOffsets, QueueBounds, PlanLimits)}, with at most {@code
   * maxRowsPerTrigger} rows over all partitions together, split by backlog ({@link TriggerBudget})
   * after each partition's own cap.
   */
  public static BatchPlan plan(
      StreamOffsets start, QueueBounds bounds, PlanLimits limits, OptionalLong maxRowsPerTrigger) {
    // Flat arrays indexed by the partition's position in bounds: no tree, no boxing.
    int n = bounds.size();
    long[] lowers = new long[n];
    long[] uppers = new long[n];
    List<DataLoss> losses = new ArrayList<>(0);
    long maxRows = limits.maxRowsPerPartition();
    StreamOffsets.Cursor startAt = start.cursor();
    for (int i = 0; i < n; i++) {
      PartitionId partition = bounds.partitionAt(i);
      PartitionBounds b = bounds.boundsAt(i);
      long lower = startAt.getOrDefault(partition, b.trimmedRowCount());
      if (lower > b.totalRowCount()) {
        throw new IllegalStateException(
            "offset "
                + lower
                + " of "
                + partition
                + " is beyond the end of the partition ("
                + b.totalRowCount()
                + " rows): the checkpoint or consumer does not belong to this queue, or the queue"
                + " was re-created. Use a new checkpointLocation and consumer, or re-create the"
                + " queue with trimmed_row_counts");
      }
      if (lower < b.trimmedRowCount()) {
        losses.add(new DataLoss(partition, lower, b.trimmedRowCount()));
        lower = b.trimmedRowCount();
      }
      lowers[i] = lower;
      uppers[i] = lower + Math.min(maxRows, b.totalRowCount() - lower);
    }
    if (!losses.isEmpty() && limits.dataLossPolicy() == DataLossPolicy.FAIL) {
      throw new DataLossException(losses);
    }
    if (maxRowsPerTrigger.isPresent()) {
      TriggerBudget.apply(maxRowsPerTrigger.getAsLong(), lowers, uppers);
    }

    int nonEmpty = 0;
    for (int i = 0; i < n; i++) {
      if (uppers[i] > lowers[i]) {
        nonEmpty++;
      }
    }
    List<OffsetRange> ranges = new ArrayList<>(nonEmpty);
    for (int i = 0; i < n; i++) {
      if (uppers[i] > lowers[i]) {
        ranges.add(new OffsetRange(bounds.partitionAt(i), lowers[i], uppers[i]));
      }
    }
    // The listed partitions at their planned offsets, merged with the ones only start has:
    // partitions the metadata no longer lists keep their offsets.
    int known = start.size();
    StreamOffsets.Builder end = StreamOffsets.builder(Math.max(n, known));
    StreamOffsets.Builder effectiveStart = StreamOffsets.builder(Math.max(n, known));
    PartitionOrder order = new PartitionOrder();
    int i = 0;
    int j = 0;
    while (i < n || j < known) {
      int c =
          i == n ? 1 : j == known ? -1 : order.compare(bounds.partitionAt(i), start.partitionAt(j));
      if (c <= 0) {
        PartitionId partition = bounds.partitionAt(i);
        end.add(partition, uppers[i]);
        effectiveStart.add(partition, lowers[i]);
        i++;
        if (c == 0) {
          j++;
        }
      } else {
        end.add(start.partitionAt(j), start.offsetAt(j));
        effectiveStart.add(start.partitionAt(j), start.offsetAt(j));
        j++;
      }
    }
    return new BatchPlan(effectiveStart.build(), end.build(), ranges, losses);
  }
}
