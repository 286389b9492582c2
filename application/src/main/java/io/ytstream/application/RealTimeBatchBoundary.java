package io.ytstream.application;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.QueueBounds;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The driver's side of the boundary between two real-time batches, in Spark's order: {@link
 * #atLatestOffset} (the previous batch's end is durable), {@link #tasks} (one open-ended task per
 * partition), and after the tasks ran {@link #merge} (where they stopped is the batch's end), then
 * {@link #committed} once Spark logged it. Both planning steps refuse a start the queue no longer
 * fits ({@link PlanMicroBatch#checkPositions}), before the consumer moves or a task starts.
 *
 * <ul>
 *   <li><b>The consumer</b> follows durable ends only: the start handed to {@link #atLatestOffset}
 *       and the end handed to {@link #committed} both have their {@code commits/N} entry. Where it
 *       is moved (in line, or on a thread of the caller's) is the caller's {@code moveConsumer}.
 *   <li><b>Bounds</b> come from {@code boundsReadAhead} when the start is the end this boundary
 *       merged from its own tasks: they read up to there, so rows exist at least that far, and
 *       bounds read before the tasks' last rows are raised to it. Otherwise (the first boundary of
 *       a query run, a start Spark took from the checkpoint, or no bounds read ahead) they are read
 *       in line, which checks the checkpoint's offsets against the queue. Planning reuses the
 *       bounds {@link #atLatestOffset} took for the same start.
 *   <li><b>The consumer is read</b> only when some partition of the bounds is not in the start (the
 *       queue was resharded): it places the new partitions, as {@link PlanMicroBatch#startOffsets}
 *       decides.
 *   <li><b>The end</b> of a batch is, per partition, the furthest a task of it reached, over the
 *       batch's start for a partition no task reported.
 * </ul>
 */
public final class RealTimeBatchBoundary {

  private final PlanMicroBatch planner;
  private final AdvanceConsumer advancer;
  private final Supplier<Optional<QueueBounds>> boundsReadAhead;
  private final Consumer<StreamOffsets> moveConsumer;

  private volatile StreamOffsets batchStart = StreamOffsets.empty();
  private volatile StreamOffsets mergedEnd;
  private volatile BoundsAt boundsAt;

  private record BoundsAt(StreamOffsets start, QueueBounds bounds) {}

  /** What the boundary plans the next batch with. */
  public record Planning(QueueBounds bounds, StreamOffsets consumer) {}

  /** A batch's tasks: each partition's start offset, and the bounds they were planned with. */
  public record Tasks(QueueBounds bounds, SortedMap<PartitionId, Long> starts) {
    public Tasks {
      starts = Collections.unmodifiableSortedMap(new TreeMap<>(starts));
    }
  }

  /** Where one task of the batch stopped: the next row index it would have read. */
  public record TaskEnd(PartitionId partition, long next) {}

  /**
   * @param boundsReadAhead recent bounds if there are any (empty: read them in line)
   * @param moveConsumer where durable ends go, to bring the consumer level with them
   */
  public RealTimeBatchBoundary(
      PlanMicroBatch planner,
      AdvanceConsumer advancer,
      Supplier<Optional<QueueBounds>> boundsReadAhead,
      Consumer<StreamOffsets> moveConsumer) {
    this.planner = Objects.requireNonNull(planner, "planner");
    this.advancer = Objects.requireNonNull(advancer, "advancer");
    this.boundsReadAhead = Objects.requireNonNull(boundsReadAhead, "boundsReadAhead");
    this.moveConsumer = Objects.requireNonNull(moveConsumer, "moveConsumer");
  }

  /**
   * Spark asks for the end of the batch from {@code start}, the end of the last batch with a {@code
   * commits/N} entry: the consumer follows it, and the bounds and consumer to plan with are
   * returned.
   */
  public Planning atLatestOffset(StreamOffsets start) {
    QueueBounds bounds = boundsFor(start);
    // Before the consumer follows: a start the queue no longer fits must not move it.
    PlanMicroBatch.checkPositions(start, bounds);
    moveConsumer.accept(start);
    boundsAt = new BoundsAt(start, bounds);
    return new Planning(bounds, consumerForUnplaced(start, bounds));
  }

  /**
   * The batch from {@code start}: one task per partition of the queue's bounds, each from its start
   * offset (a partition {@code start} does not know starts where the consumer places it).
   */
  public Tasks tasks(StreamOffsets start) {
    BoundsAt known = boundsAt;
    QueueBounds bounds =
        known != null && known.start().equals(start) ? known.bounds() : planner.readBounds();
    PlanMicroBatch.checkPositions(start, bounds);
    StreamOffsets resolved =
        planner.startOffsets(start, bounds, consumerForUnplaced(start, bounds));
    batchStart = resolved;
    TreeMap<PartitionId, Long> starts = new TreeMap<>();
    for (PartitionId p : bounds.asMap().keySet()) {
      starts.put(p, resolved.getOrDefault(p, 0));
    }
    return new Tasks(bounds, starts);
  }

  /** The batch's end from where its tasks stopped; the next boundary may plan without a request. */
  public StreamOffsets merge(List<TaskEnd> ends) {
    TreeMap<PartitionId, Long> furthest = new TreeMap<>();
    for (TaskEnd e : ends) {
      furthest.merge(e.partition(), e.next(), Math::max);
    }
    StreamOffsets end = batchStart.overlay(StreamOffsets.of(furthest));
    mergedEnd = end;
    return end;
  }

  /** Spark logged {@code end} as committed: the consumer follows. */
  public void committed(StreamOffsets end) {
    moveConsumer.accept(end);
  }

  private QueueBounds boundsFor(StreamOffsets start) {
    if (!start.equals(mergedEnd)) {
      return planner.readBounds();
    }
    return boundsReadAhead.get().map(b -> b.atLeast(start)).orElseGet(planner::readBounds);
  }

  private StreamOffsets consumerForUnplaced(StreamOffsets start, QueueBounds bounds) {
    for (PartitionId p : bounds.asMap().keySet()) {
      if (start.get(p).isEmpty()) {
        return advancer.read();
      }
    }
    return StreamOffsets.empty();
  }
}
