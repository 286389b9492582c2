package io.ytstream.simulation.check;

import io.ytstream.application.PlanMicroBatch;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.TriggerLimit;
import io.ytstream.ports.QueueMetadata;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

/**
 * A batch planned while the queues stood still holds fewer rows than its caps (rows per partition,
 * rows and bytes per trigger) allow: the stream falls behind for no reason.
 */
public final class BatchUnderfilled {

  public static final Property PROPERTY =
      new Property("BatchUnderfilled", "batch smaller than its caps allow");

  private final QueueMetadata metadata;
  private final List<QueueId> queues;
  private long[] boundsAtPlan;

  public BatchUnderfilled(QueueMetadata metadata, List<QueueId> queues) {
    this.metadata = metadata;
    this.queues = List.copyOf(queues);
  }

  /** The queues' bounds as a plan begins, to tell whether they moved while it ran. */
  public void before() {
    boundsAtPlan = boundsNow();
  }

  private long[] boundsNow() {
    List<Long> all = new ArrayList<>();
    for (QueueId q : queues) {
      for (PartitionBounds b : metadata.partitions(q)) {
        all.add((long) b.index());
        all.add(b.trimmedRowCount());
        all.add(b.totalRowCount());
      }
    }
    return all.stream().mapToLong(Long::longValue).toArray();
  }

  /**
   * A batch planned while the queues stood still holds as many rows as the caps allow: per
   * partition the rows past the start up to {@code max_rows_per_partition}, over all of them at
   * most {@code max_rows_per_trigger}, and under {@code max_bytes_per_trigger} as many whole rows
   * as its bytes take (at least one). Every queue row weighs the same, so the byte cap is a row
   * count. Not judged where trimmed rows meet the batch (its first row's weight may be unknown,
   * which makes the batch one row), under Trigger.AvailableNow (its end bounds the batch) or when a
   * trigger is held back.
   */
  public void planned(
      Violations out,
      StreamOffsets start,
      PlanMicroBatch.PlannedEnd planned,
      long rows,
      long maxRowsPerPartition,
      TriggerLimit trigger,
      boolean availableNow,
      long rowWeight) {
    if (availableNow
        || planned.heldBack()
        || boundsAtPlan == null
        || !Arrays.equals(boundsAtPlan, boundsNow())) {
      return;
    }
    long room = 0;
    for (QueueId q : queues) {
      for (PartitionBounds b : metadata.partitions(q)) {
        OptionalLong from = start.get(new PartitionId(q, b.index()));
        if (from.isEmpty()
            || from.getAsLong() > b.totalRowCount()
            || (b.trimmedRowCount() > 0 && b.trimmedRowCount() >= from.getAsLong())) {
          return;
        }
        room += Math.min(b.totalRowCount() - from.getAsLong(), maxRowsPerPartition);
      }
    }
    if (trigger.maxRows().isPresent()) {
      room = Math.min(room, trigger.maxRows().getAsLong());
    }
    if (trigger.maxBytes().isPresent() && room > 0) {
      room = Math.min(room, Math.max(1, trigger.maxBytes().getAsLong() / rowWeight));
    }
    if (rows < room) {
      out.add(
          PROPERTY,
          "a batch of "
              + rows
              + " rows from "
              + start
              + " to "
              + planned.end()
              + " where the caps allow "
              + room
              + " (max_rows_per_partition "
              + maxRowsPerPartition
              + ", trigger "
              + trigger
              + ")");
    }
  }
}
