package io.ytstream.simulation.check;

import io.ytstream.application.PlanMicroBatch;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.TriggerLimit;
import io.ytstream.ports.QueueMetadata;
import java.util.List;
import java.util.OptionalLong;

/**
 * {@code min_rows_per_trigger}: a trigger was held back though its rows were there, its delay had
 * passed, it was the source's first, or the run is Trigger.AvailableNow; or a trigger with fewer
 * rows ran before its delay passed.
 */
public final class TriggerPacing {

  public static final Property PROPERTY =
      new Property("TriggerPacing", "trigger held back or run against min_rows_per_trigger");

  private TriggerPacing() {}

  /**
   * A trigger was planned {@code sinceLastMs} after the last batch with rows this source ran
   * ({@link Long#MAX_VALUE} before its first): it must be held back exactly when {@code
   * min_rows_per_trigger} is set, the run is not Trigger.AvailableNow, the delay has not passed and
   * the queue holds fewer rows past {@code start} than the minimum. A trigger that places new
   * partitions is never held back.
   */
  public static void paced(
      Violations out,
      QueueMetadata metadata,
      List<QueueId> queues,
      TriggerLimit trigger,
      boolean availableNow,
      StreamOffsets start,
      PlanMicroBatch.PlannedEnd planned,
      long sinceLastMs) {
    if (planned.placesNewPartitions()) {
      return;
    }
    OptionalLong min = trigger.minRows();
    boolean mustHold = false;
    long available = 0;
    if (min.isPresent() && !availableNow && sinceLastMs < trigger.maxDelayMs()) {
      for (QueueId q : queues) {
        for (PartitionBounds b : metadata.partitions(q)) {
          long from =
              Math.max(start.getOrDefault(new PartitionId(q, b.index()), 0), b.trimmedRowCount());
          available += Math.max(0, b.totalRowCount() - from);
        }
      }
      mustHold = available < min.getAsLong();
    }
    if (planned.heldBack() != mustHold) {
      out.add(
          PROPERTY,
          (planned.heldBack() ? "held back" : "ran")
              + " a trigger from "
              + start
              + " with "
              + (min.isPresent() ? available + " row(s) available, " : "")
              + "min_rows_per_trigger "
              + (min.isPresent() ? min.getAsLong() : "unset")
              + ", "
              + (sinceLastMs == Long.MAX_VALUE
                  ? "no batch before"
                  : sinceLastMs + " ms since the last batch")
              + ", max_trigger_delay "
              + trigger.maxDelayMs()
              + " ms"
              + (availableNow ? ", Trigger.AvailableNow" : ""));
    }
  }
}
