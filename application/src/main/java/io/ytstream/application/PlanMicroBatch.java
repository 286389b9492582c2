package io.ytstream.application;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StartingOffsets;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.BatchPlan;
import io.ytstream.core.plan.BatchPlanner;
import io.ytstream.core.plan.DataLoss;
import io.ytstream.core.plan.NewPartitionPlacement;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.QueueBounds;
import io.ytstream.core.plan.QueuePositions;
import io.ytstream.core.plan.StartOffsetResolver;
import io.ytstream.core.plan.TriggerLimit;
import io.ytstream.ports.QueueMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Plans micro-batches: partition bounds, then start offsets, then new partitions, then caps. The
 * decisions are core's ({@link StartOffsetResolver}, {@link NewPartitionPlacement}, {@link
 * BatchPlanner}, {@link io.ytstream.core.plan.ByteBudget} through {@link CapBatchBytes}; the ranges
 * and tasks of a batch are {@link io.ytstream.core.plan.RangesBetween} and {@link
 * io.ytstream.core.plan.TaskAssigner}); this class asks the ports for their inputs, in order.
 *
 * <p>A partition the start offsets do not know (the queue was resharded) first gets an end of its
 * own with no rows ({@link NewPartitionPlacement}): the batch that places it records where it
 * starts, so the lower bound of every later range is in the offset log and a range never has to
 * guess a start. A start the queue no longer fits (fewer partitions, or a partition ending before
 * its offset) is refused by {@link #checkPositions} ({@link QueuePositions}), which the source
 * calls before the consumer follows the start and before it plans.
 */
public final class PlanMicroBatch {

  private final QueueMetadata metadata;
  private final ConsumerId consumer;
  private final List<QueueId> queues;
  private final PlanLimits limits;
  private final CapBatchBytes bytes;

  /** What a planning call decided: the end offsets, and any trimmed rows it skipped. */
  public record PlannedEnd(
      StreamOffsets end, List<DataLoss> losses, boolean placesNewPartitions, boolean heldBack) {

    public PlannedEnd(StreamOffsets end, List<DataLoss> losses, boolean placesNewPartitions) {
      this(end, losses, placesNewPartitions, false);
    }

    public PlannedEnd {
      Objects.requireNonNull(end, "end");
      losses = List.copyOf(losses);
    }

    public long lostRowCount() {
      return DataLoss.totalRows(losses);
    }
  }

  public PlanMicroBatch(
      QueueMetadata metadata, ConsumerId consumer, List<QueueId> queues, PlanLimits limits) {
    this(metadata, consumer, queues, limits, null);
  }

  /**
   * @param bytes what reads the rows' data weight for the byte caps ({@code
   *     max_bytes_per_partition}, a trigger's {@code maxBytes}); null when no cap is by bytes
   */
  public PlanMicroBatch(
      QueueMetadata metadata,
      ConsumerId consumer,
      List<QueueId> queues,
      PlanLimits limits,
      CapBatchBytes bytes) {
    this.bytes = bytes;
    this.metadata = Objects.requireNonNull(metadata, "metadata");
    this.consumer = Objects.requireNonNull(consumer, "consumer");
    this.queues = List.copyOf(queues);
    this.limits = Objects.requireNonNull(limits, "limits");
  }

  /** Every queue's partition bounds, one metadata call per queue. */
  public QueueBounds readBounds() {
    Map<QueueId, List<PartitionBounds>> byQueue = new TreeMap<>();
    for (QueueId queue : queues) {
      byQueue.put(queue, metadata.partitions(queue));
    }
    return QueueBounds.of(byQueue);
  }

  /** Where a query with no checkpoint starts: the consumer's offsets, 0 where it has none. */
  public StreamOffsets initialOffsets(QueueBounds bounds, StreamOffsets consumerNow) {
    return StartOffsetResolver.resolve(Optional.empty(), consumerNow, bounds);
  }

  /**
   * Where a query with no checkpoint starts when the user gave {@code starting}: there, if the
   * consumer has no position yet for any queue read; otherwise the consumer is the position, and
   * {@code starting} is refused rather than silently ignored or allowed to move the consumer.
   *
   * @throws IllegalArgumentException when the consumer has a row for a queue read, or {@code
   *     starting} does not fit the queues (see {@link StartOffsetResolver#resolve(StartingOffsets,
   *     QueueBounds)})
   */
  public StreamOffsets initialOffsets(
      QueueBounds bounds, StreamOffsets consumerNow, Optional<StartingOffsets> starting) {
    if (starting.isEmpty()) {
      return initialOffsets(bounds, consumerNow);
    }
    if (!consumerNow.isEmpty()) {
      throw new IllegalArgumentException(
          "option starting_offsets is for a query the consumer has no position for, but consumer "
              + consumer.path()
              + " already holds offsets "
              + consumerNow.asMap()
              + ": the consumer is where this query starts (it is what the query advances and"
              + " what other readers of the consumer see). Remove starting_offsets to go on from"
              + " the consumer, or register a new consumer for the queue to start elsewhere");
    }
    return StartOffsetResolver.resolve(starting.get(), bounds);
  }

  /**
   * Where each partition starts when the batch starts at {@code start}: its offset there, and for a
   * partition {@code start} does not know, the consumer's offset or else the partition's first row.
   */
  public StreamOffsets startOffsets(
      StreamOffsets start, QueueBounds bounds, StreamOffsets consumerNow) {
    return StartOffsetResolver.resolve(Optional.of(start), consumerNow, bounds);
  }

  /**
   * Refuses {@code start} when the queue no longer fits it: a queue read has fewer partitions than
   * {@code start} names, or a partition ends before its offset (re-created or truncated).
   *
   * @throws io.ytstream.core.plan.UntrustedPositionsException naming the queue, the partition and
   *     the offsets seen, and what the user can do
   */
  public static void checkPositions(StreamOffsets start, QueueBounds bounds) {
    QueuePositions.check(start, bounds);
  }

  /**
   * The end of the batch that starts at {@code start} (the end of the last committed batch), sized
   * by the trigger's limit. New partitions are placed first, with no rows, and that is never held
   * back; otherwise the end is core's plan under the limits and at most the trigger's {@code
   * maxRows} over all partitions, and no batch ({@code end == start}, {@link
   * PlannedEnd#heldBack()}) while fewer than its {@code minRows} wait and the last batch was less
   * than its delay ago. Then, when {@code capBytes}, the caps by data weight ({@code
   * max_bytes_per_partition} and the trigger's {@code maxBytes}, {@link CapBatchBytes}) after the
   * caps by rows. Real-time Mode passes false: its batch ends where its tasks stop, not where
   * planning says.
   *
   * <p>{@code start} must fit {@code bounds}: the caller checks it ({@link #checkPositions}) before
   * the consumer follows {@code start}, as {@link StreamingSource#latestOffset} and {@link
   * RealTimeBatchBoundary#atLatestOffset} do.
   *
   * @param msSinceLastBatch time since the last batch that was not held back (the caller's clock)
   * @throws io.ytstream.core.plan.DataLossException when rows were trimmed before being read and
   *     the policy is to fail
   */
  public PlannedEnd plan(
      StreamOffsets start,
      QueueBounds bounds,
      StreamOffsets consumerNow,
      TriggerLimit trigger,
      long msSinceLastBatch,
      boolean capBytes) {
    StreamOffsets resolved = startOffsets(start, bounds, consumerNow);
    Optional<NewPartitionPlacement> placing =
        NewPartitionPlacement.of(start, resolved, consumerNow, limits.dataLossPolicy());
    if (placing.isPresent()) {
      return new PlannedEnd(placing.get().end(), placing.get().losses(), true);
    }
    if (trigger.holdsBack(bounds.rowsAfter(resolved), msSinceLastBatch)) {
      return new PlannedEnd(start, List.of(), false, true);
    }
    BatchPlan plan = BatchPlanner.plan(resolved, bounds, limits, trigger.maxRows());
    StreamOffsets end = plan.end();
    OptionalLong perPartition = limits.maxBytesPerPartition();
    OptionalLong perTrigger = trigger.maxBytes();
    if (capBytes && plan.hasData() && (perPartition.isPresent() || perTrigger.isPresent())) {
      if (bytes == null) {
        throw new IllegalStateException(
            "a cap by bytes needs a reader of the rows' $cumulative_data_weight: build the planner"
                + " with a CapBatchBytes");
      }
      end = bytes.cap(plan, perPartition, perTrigger, byteOptions(perPartition, perTrigger));
    }
    return new PlannedEnd(end, plan.losses(), false);
  }

  /** The byte options as the user set them, for an error about them. */
  private static String byteOptions(OptionalLong perPartition, OptionalLong perTrigger) {
    List<String> set = new ArrayList<>(2);
    perPartition.ifPresent(v -> set.add("max_bytes_per_partition = " + v));
    perTrigger.ifPresent(v -> set.add("max_bytes_per_trigger = " + v));
    return String.join(" and ", set);
  }
}
