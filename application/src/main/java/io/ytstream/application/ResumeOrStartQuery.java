package io.ytstream.application;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.StartingOffsets;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.QueueBounds;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a query run starts reading, at its (re)start: from the checkpoint when it has recorded the
 * source's start, else from the consumer.
 *
 * <ul>
 *   <li><b>A restart</b> keeps the start recorded when the checkpoint was new. Spark then picks the
 *       batch to run from its own logs (the batch after the last {@code commits/N}, or that batch
 *       again when only its {@code offsets/N} is written); Real-time Mode drops an {@code
 *       offsets/N} without its {@code commits/N} and runs the batch again from the previous end.
 *       The consumer is not asked: it may lag one batch behind the checkpoint (it moves after
 *       {@code commits/N}), and the first boundary brings it level.
 *   <li><b>A checkpoint recorded for another consumer</b> is refused: its offsets say nothing about
 *       this consumer's rows.
 *   <li><b>A new checkpoint</b> starts where the consumer stands, at each partition's first row
 *       where it has no offset, or, when the consumer has no position at all, where option {@code
 *       starting_offsets} says ({@link PlanMicroBatch#initialOffsets(QueueBounds, StreamOffsets,
 *       Optional)}) or, for {@code starting_timestamp}, each partition's first row at or after that
 *       time ({@link FindOffsetByTimestamp}). A restart ignores both: the checkpoint is the
 *       position.
 * </ul>
 */
public final class ResumeOrStartQuery {

  private final PlanMicroBatch planner;
  private final AdvanceConsumer advancer;
  private final ConsumerId consumer;
  private final FindOffsetByTimestamp byTime;

  /** What a checkpoint recorded when it was new: the consumer and the first batch's start. */
  public record Recorded(ConsumerId consumer, StreamOffsets initial) {
    public Recorded {
      Objects.requireNonNull(consumer, "consumer");
      Objects.requireNonNull(initial, "initial");
    }
  }

  /** {@code byTime} finds a new checkpoint's start at a time ({@code starting_timestamp}). */
  public ResumeOrStartQuery(
      PlanMicroBatch planner,
      AdvanceConsumer advancer,
      ConsumerId consumer,
      FindOffsetByTimestamp byTime) {
    this.planner = Objects.requireNonNull(planner, "planner");
    this.advancer = Objects.requireNonNull(advancer, "advancer");
    this.consumer = Objects.requireNonNull(consumer, "consumer");
    this.byTime = Objects.requireNonNull(byTime, "byTime");
  }

  /**
   * The source's initial offsets: the recorded ones, or (nothing recorded) where the consumer
   * stands now, or where {@code starting} says for a consumer without a position, for the caller to
   * record.
   *
   * @param where the checkpoint, named in the error for another consumer
   * @throws IllegalArgumentException when the checkpoint was recorded for another consumer, or
   *     {@code starting} is given but the consumer already has a position, or does not fit the
   *     queues
   */
  public StreamOffsets initialOffsets(
      Optional<Recorded> recorded, Optional<StartingOffsets> starting, String where) {
    if (recorded.isPresent()) {
      if (!recorded.get().consumer().equals(consumer)) {
        throw new IllegalArgumentException(
            "the checkpoint at "
                + where
                + " was written for consumer "
                + recorded.get().consumer()
                + ", but the query now reads with "
                + consumer
                + ": use a new checkpointLocation when changing option consumer_path");
      }
      return recorded.get().initial();
    }
    if (starting.isPresent() && starting.get() instanceof StartingOffsets.AtTimestamp t) {
      return atTimestamp(t.epochMillis());
    }
    return planner.initialOffsets(planner.readBounds(), advancer.read(), starting);
  }

  /** A new checkpoint's start at a time: refused, as starting_offsets is, where the consumer is. */
  private StreamOffsets atTimestamp(long epochMillis) {
    StreamOffsets consumerNow = advancer.read();
    if (!consumerNow.isEmpty()) {
      throw new IllegalArgumentException(
          "option starting_timestamp is for a query the consumer has no position for, but"
              + " consumer "
              + consumer.path()
              + " already holds offsets "
              + consumerNow.asMap()
              + ": the consumer is where this query starts (it is what the query advances and"
              + " what other readers of the consumer see). Remove starting_timestamp to go on from"
              + " the consumer, or register a new consumer for the queue to start elsewhere");
    }
    return byTime.offsets(planner.readBounds(), epochMillis, "starting_timestamp");
  }
}
