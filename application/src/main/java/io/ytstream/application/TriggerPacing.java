package io.ytstream.application;

import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.QueueBounds;
import io.ytstream.core.plan.TriggerLimit;
import java.util.Objects;

/**
 * A streaming source's triggers over time, sized by {@link TriggerLimit}: {@code
 * min_rows_per_trigger} holds a trigger back until its delay has passed since the last batch that
 * ran. Only a batch with rows restarts the delay, so rows after an idle spell do not wait again;
 * the first trigger never waits (as Kafka's source). Trigger.AvailableNow drops the minimum: it
 * ends at the first trigger without rows, which a held-back trigger would look like. The caller's
 * clock is passed in.
 */
public final class TriggerPacing {

  private final PlanMicroBatch planner;
  private long lastBatchAtMs;
  private boolean ranOnce;

  public TriggerPacing(PlanMicroBatch planner) {
    this.planner = Objects.requireNonNull(planner, "planner");
  }

  /**
   * Plans this trigger's batch and remembers when one ran; the caps by bytes only when {@code
   * capBytes} ({@link PlanMicroBatch#plan}). The pacing is by rows either way.
   */
  public synchronized PlanMicroBatch.PlannedEnd plan(
      StreamOffsets start,
      QueueBounds bounds,
      StreamOffsets consumerNow,
      TriggerLimit asked,
      boolean availableNow,
      long nowMs,
      boolean capBytes) {
    TriggerLimit limit = availableNow ? asked.withoutMinimum() : asked;
    long sinceLast = ranOnce ? nowMs - lastBatchAtMs : Long.MAX_VALUE;
    PlanMicroBatch.PlannedEnd planned =
        planner.plan(start, bounds, consumerNow, limit, sinceLast, capBytes);
    if (!planned.heldBack() && !planned.end().equals(start)) {
      lastBatchAtMs = nowMs;
      ranOnce = true;
    }
    return planned;
  }
}
