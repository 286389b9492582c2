package io.ytstream.core.plan;

import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Plans one batch: for every partition {@code lower} = the start offset and {@code upper =
 * min(lower + max_rows_per_partition, end_of_partition)}; empty partitions are skipped. Pure: no
 * I/O, no clock; the same inputs give the same plan.
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
    TreeMap<PartitionId, Long> lowers = new TreeMap<>();
    TreeMap<PartitionId, Long> uppers = new TreeMap<>();
    List<DataLoss> losses = new ArrayList<>();
    for (Map.Entry<PartitionId, PartitionBounds> entry : bounds.asMap().entrySet()) {
      PartitionId partition = entry.getKey();
      PartitionBounds b = entry.getValue();
      long lower = start.getOrDefault(partition, b.trimmedRowCount());
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
      lowers.put(partition, lower);
      uppers.put(
          partition, lower + Math.min(limits.maxRowsPerPartition(), b.totalRowCount() - lower));
    }
    if (!losses.isEmpty() && limits.dataLossPolicy() == DataLossPolicy.FAIL) {
      throw new DataLossException(losses);
    }
    limits.outputTabletCap().ifPresent(cap -> applyCap(cap, lowers, uppers));

    List<OffsetRange> ranges = new ArrayList<>();
    uppers.forEach(
        (partition, upper) -> {
          long lower = lowers.get(partition);
          if (upper > lower) {
            ranges.add(new OffsetRange(partition, lower, upper));
          }
        });
    // Partitions the metadata no longer lists keep their offsets.
    TreeMap<PartitionId, Long> end = new TreeMap<>(start.asMap());
    end.putAll(uppers);
    TreeMap<PartitionId, Long> effectiveStart = new TreeMap<>(start.asMap());
    effectiveStart.putAll(lowers);
    return new BatchPlan(StreamOffsets.of(effectiveStart), StreamOffsets.of(end), ranges, losses);
  }

  /**
   * Shrinks ranges so that no output tablet gets more rows than the cap. Within one output tablet
   * the budget is shared by water-filling in partition order: every range gets an equal share, and
   * what small ranges do not use goes to the larger ones.
   */
  private static void applyCap(
      OutputTabletCap cap, TreeMap<PartitionId, Long> lowers, TreeMap<PartitionId, Long> uppers) {
    List<List<PartitionId>> groups = new ArrayList<>();
    for (int t = 0; t < cap.outputTabletCount(); t++) {
      groups.add(new ArrayList<>());
    }
    int ordinal = 0;
    for (PartitionId partition : uppers.keySet()) {
      groups.get(cap.outputTabletOf(ordinal++)).add(partition);
    }
    for (List<PartitionId> group : groups) {
      long budget = cap.maxInputRowsPerTablet();
      List<PartitionId> open = new ArrayList<>();
      for (PartitionId p : group) {
        if (uppers.get(p) > lowers.get(p)) {
          open.add(p);
        }
      }
      TreeMap<PartitionId, Long> granted = new TreeMap<>();
      while (!open.isEmpty() && budget > 0) {
        long share = Math.max(1, budget / open.size());
        List<PartitionId> stillOpen = new ArrayList<>();
        for (PartitionId p : open) {
          if (budget == 0) {
            break;
          }
          long want = uppers.get(p) - lowers.get(p) - granted.getOrDefault(p, 0L);
          long give = Math.min(Math.min(want, share), budget);
          granted.merge(p, give, Long::sum);
          budget -= give;
          if (give < want) {
            stillOpen.add(p);
          }
        }
        open = stillOpen;
      }
      for (PartitionId p : group) {
        uppers.put(p, lowers.get(p) + granted.getOrDefault(p, 0L));
      }
    }
  }
}
