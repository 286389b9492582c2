package io.ytstream.application;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.QueueBounds;
import io.ytstream.core.plan.RealTimeTaskGroups;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The driver's side of the boundary between two real-time batches, in Spark's order: {@link
 * #atLatestOffset} (the previous batch's end is durable), {@link #tasks} (open-ended tasks, each
 * reading up to {@code partitionsPerTask} partitions, {@link RealTimeTaskGroups}), and after the
 * tasks ran {@link #merge} (where they stopped is the batch's end), then {@link #committed} once
 * Spark logged it. Both planning steps refuse a start the queue no longer fits ({@link
 * PlanMicroBatch#checkPositions}), before the consumer moves or a task starts.
 *
 * <ul>
 *   <li><b>The consumer</b> follows the ends handed to {@link #committed} only, never the start
 *       handed to {@link #atLatestOffset}. Spark hands {@code commit} the end of a batch whose
 *       {@code offsets/N} and {@code commits/N} entries are both on storage, with progress tracked
 *       synchronously or asynchronously; the start of the next batch is durable only when progress
 *       is tracked synchronously (Spark 4.3 tracks a stateless real-time query's progress
 *       asynchronously by default: the start is then the previous batch's end while its entries are
 *       still being written, and a restart may resume before it). With synchronous tracking Spark
 *       commits that same start right after {@code latestOffset}, so following {@code commit} alone
 *       costs nothing there. Where the consumer is moved (in line, or on a thread of the caller's)
 *       is the caller's {@code moveConsumer}.
 *   <li><b>Bounds</b> come from {@code boundsReadAhead} when the start is the end this boundary
 *       merged from its own tasks: they read up to there, so rows exist at least that far, and
 *       bounds read before the tasks' last rows are raised to it; bounds read after them are not
 *       (the third read seen from one start), and one below the start is read again in line, which
 *       refuses a re-created queue. Otherwise (the first boundary of a query run, a start Spark
 *       took from the checkpoint, or no bounds read ahead) they are read in line, which checks the
 *       checkpoint's offsets against the queue. Planning reuses the bounds {@link #atLatestOffset}
 *       took for the same start.
 *   <li><b>The consumer is read</b> only when some partition of the bounds is not in the start (the
 *       queue was resharded): it places the new partitions, as {@link PlanMicroBatch#startOffsets}
 *       decides.
 *   <li><b>The end</b> of a batch is, per partition, the furthest a task of it reached (a task
 *       reports every partition it read), over the batch's start for a partition no task reported.
 * </ul>
 */
public final class RealTimeBatchBoundary {

  private final PlanMicroBatch planner;
  private final AdvanceConsumer advancer;
  private final Supplier<Optional<QueueBounds>> boundsReadAhead;
  private final Consumer<StreamOffsets> moveConsumer;
  private final int partitionsPerTask;

  private volatile StreamOffsets batchStart = StreamOffsets.empty();
  private volatile StreamOffsets mergedEnd;
  private volatile BoundsAt boundsAt;

  // Which reads ahead the boundaries from one start have seen (the engine's thread only).
  private StreamOffsets aheadFrom;
  private QueueBounds lastAhead;
  private int aheadSeen;

  private record BoundsAt(StreamOffsets start, QueueBounds bounds) {}

  /** What the boundary plans the next batch with. */
  public record Planning(QueueBounds bounds, StreamOffsets consumer) {}

  /**
   * A batch's tasks: each partition's start offset, the bounds they were planned with, and which
   * partitions each task reads ({@link RealTimeTaskGroups}).
   */
  public record Tasks(
      QueueBounds bounds,
      SortedMap<PartitionId, Long> starts,
      List<SortedMap<PartitionId, Long>> perTask) {
    public Tasks {
      starts = Collections.unmodifiableSortedMap(new TreeMap<>(starts));
      perTask = List.copyOf(perTask);
    }
  }

  /**
   * Where one task of the batch stopped: for each partition it read, the next row index it would
   * have read.
   */
  public record TaskEnd(SortedMap<PartitionId, Long> next) {
    public TaskEnd {
      next = Collections.unmodifiableSortedMap(new TreeMap<>(next));
    }

    /** A task of one partition. */
    public TaskEnd(PartitionId partition, long next) {
      this(new TreeMap<>(Map.of(partition, next)));
    }
  }

  /**
   * @param boundsReadAhead recent bounds if there are any (empty: read them in line)
   * @param moveConsumer where durable ends go, to bring the consumer level with them
   */
  public RealTimeBatchBoundary(
      PlanMicroBatch planner,
      AdvanceConsumer advancer,
      Supplier<Optional<QueueBounds>> boundsReadAhead,
      Consumer<StreamOffsets> moveConsumer) {
    this(planner, advancer, boundsReadAhead, moveConsumer, 1);
  }

  /**
   * @param partitionsPerTask the most queue partitions one task reads (>= 1)
   */
  public RealTimeBatchBoundary(
      PlanMicroBatch planner,
      AdvanceConsumer advancer,
      Supplier<Optional<QueueBounds>> boundsReadAhead,
      Consumer<StreamOffsets> moveConsumer,
      int partitionsPerTask) {
    this.planner = Objects.requireNonNull(planner, "planner");
    this.advancer = Objects.requireNonNull(advancer, "advancer");
    this.boundsReadAhead = Objects.requireNonNull(boundsReadAhead, "boundsReadAhead");
    this.moveConsumer = Objects.requireNonNull(moveConsumer, "moveConsumer");
    if (partitionsPerTask < 1) {
      throw new IllegalArgumentException(
          "partitionsPerTask must be >= 1, got " + partitionsPerTask);
    }
    this.partitionsPerTask = partitionsPerTask;
  }

  /** The tasks a batch over {@code partitions} runs, in order (for the engine's slot check). */
  public List<SortedSet<PartitionId>> taskPartitions(Collection<PartitionId> partitions) {
    TreeMap<PartitionId, Long> any = new TreeMap<>();
    partitions.forEach(p -> any.put(p, 0L));
    List<SortedSet<PartitionId>> out = new ArrayList<>();
    for (SortedMap<PartitionId, Long> task : RealTimeTaskGroups.assign(any, partitionsPerTask)) {
      out.add(Collections.unmodifiableSortedSet(new TreeSet<>(task.keySet())));
    }
    return List.copyOf(out);
  }

  /**
   * Spark asks for the end of the batch from {@code start}, the end of the previous batch (durable
   * or not, as progress tracking goes: the consumer does not follow it); the bounds and consumer to
   * plan with are returned.
   */
  public Planning atLatestOffset(StreamOffsets start) {
    QueueBounds bounds = boundsFor(start);
    PlanMicroBatch.checkPositions(start, bounds);
    boundsAt = new BoundsAt(start, bounds);
    return new Planning(bounds, consumerForUnplaced(start, bounds));
  }

  /**
   * The batch from {@code start}: every partition of the queue's bounds from its start offset (a
   * partition {@code start} does not know starts where the consumer places it), up to {@code
   * partitionsPerTask} of them per task.
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
    return new Tasks(bounds, starts, RealTimeTaskGroups.assign(starts, partitionsPerTask));
  }

  /** The batch's end from where its tasks stopped; the next boundary may plan without a request. */
  public StreamOffsets merge(List<TaskEnd> ends) {
    TreeMap<PartitionId, Long> furthest = new TreeMap<>();
    for (TaskEnd e : ends) {
      e.next().forEach((p, next) -> furthest.merge(p, next, Math::max));
    }
    StreamOffsets end = batchStart.overlay(StreamOffsets.of(furthest));
    mergedEnd = end;
    return end;
  }

  /**
   * Spark logged {@code end} as committed ({@code offsets/N} and {@code commits/N} on storage): the
   * consumer follows. With asynchronous progress tracking this comes batches after the boundary
   * from {@code end}, and the ends handed here still only grow.
   */
  public void committed(StreamOffsets end) {
    moveConsumer.accept(end);
  }

  private QueueBounds boundsFor(StreamOffsets start) {
    if (!start.equals(mergedEnd)) {
      return planner.readBounds();
    }
    Optional<QueueBounds> ahead = boundsReadAhead.get();
    if (ahead.isEmpty()) {
      return planner.readBounds();
    }
    QueueBounds b = ahead.get();
    if (!start.equals(aheadFrom)) {
      aheadFrom = start;
      aheadSeen = 0;
      lastAhead = null;
    }
    if (b != lastAhead) {
      lastAhead = b;
      aheadSeen++;
    }
    QueueBounds raised = b.atLeast(start);
    // Reads ahead are made one after another, so the third one seen from the same start began
    // after the first boundary from it, and so after the tasks' last rows: it is not raised, and
    // one below the start (a re-created queue) sends the boundary to read in line and refuse it.
    return raised != b && aheadSeen >= 3 ? planner.readBounds() : raised;
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
