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
 *       Optional)}). A restart ignores that option: the checkpoint is the position.
 * </ul>
 */
public final class ResumeOrStartQuery {

  private final PlanMicroBatch planner;
  private final AdvanceConsumer advancer;
  private final ConsumerId consumer;

  /** What a checkpoint recorded when it was new: the consumer and the first batch's start. */
  public record Recorded(ConsumerId consumer, StreamOffsets initial) {
    public Recorded {
      Objects.requireNonNull(consumer, "consumer");
      Objects.requireNonNull(initial, "initial");
    }
  }

  public ResumeOrStartQuery(PlanMicroBatch planner, AdvanceConsumer advancer, ConsumerId consumer) {
    this.planner = Objects.requireNonNull(planner, "planner");
    this.advancer = Objects.requireNonNull(advancer, "advancer");
    this.consumer = Objects.requireNonNull(consumer, "consumer");
  }

  /**
   * The source's initial offsets: the recorded ones, or (nothing recorded) where the consumer
   * stands now, for the caller to record.
   *
   * @param where the checkpoint, named in the error for another consumer
   * @throws IllegalArgumentException when the checkpoint was recorded for another consumer
   */
  public StreamOffsets initialOffsets(Optional<Recorded> recorded, String where) {
    return initialOffsets(recorded, Optional.empty(), where);
  }

  /**
   * As {@link #initialOffsets(Optional, String)}, with the user's start for a new checkpoint.
   *
   * @throws IllegalArgumentException also when {@code starting} is given but the consumer already
   *     has a position, or does not fit the queues
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
    return planner.initialOffsets(planner.readBounds(), advancer.read(), starting);
  }
}
