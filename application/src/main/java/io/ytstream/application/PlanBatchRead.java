package io.ytstream.application;

import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StartingOffsets;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.EndBeforeStart;
import io.ytstream.core.plan.QueueBounds;
import io.ytstream.core.plan.StartOffsetResolver;
import io.ytstream.core.plan.StaticReadPlan;
import io.ytstream.core.plan.StaticReadPlanner;
import io.ytstream.ports.QueueMetadata;
import io.ytstream.ports.QueueRangeReader;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Plans a static read of a range of queues, without a consumer (Kafka's batch read): the bounds of
 * every partition, then the start and the end (offsets by core's {@link StartOffsetResolver}, times
 * by {@link FindOffsetByTimestamp}), then core's {@link StaticReadPlanner}: trimmed rows under the
 * data-loss policy, tasks of bounded size. The start defaults to {@code earliest}, the end to
 * {@code latest}; the end is exclusive.
 *
 * <p>An end before its start is core's to find ({@link StaticReadPlanner#endBeforeStart}); the
 * error is built here, where the options that gave both are known.
 *
 * <p>As Kafka's batch read: {@code starting_offsets=latest} and an end at {@code earliest} ({@code
 * -2}) are refused, since each would read nothing whatever the queue holds.
 */
@DrivingUseCase
public final class PlanBatchRead {

  /** Where a static read starts or ends: the offsets' forms and its option's name. */
  public record Bound(StartingOffsets position, String option) {
    public Bound {
      Objects.requireNonNull(position, "position");
      Objects.requireNonNull(option, "option");
    }
  }

  private final QueueMetadata metadata;
  private final FindOffsetByTimestamp byTime;
  private final List<QueueId> queues;

  public PlanBatchRead(QueueMetadata metadata, QueueRangeReader reader, List<QueueId> queues) {
    this.metadata = Objects.requireNonNull(metadata, "metadata");
    this.byTime = new FindOffsetByTimestamp(reader);
    this.queues = List.copyOf(queues);
  }

  /** Every queue's partition bounds, one metadata call per queue. */
  public QueueBounds readBounds() {
    Map<QueueId, List<PartitionBounds>> byQueue = new TreeMap<>();
    for (QueueId queue : queues) {
      byQueue.put(queue, metadata.partitions(queue));
    }
    return QueueBounds.of(byQueue);
  }

  /**
   * The ranges of {@code [start, end)} over the queues as they are now.
   *
   * @throws IllegalArgumentException for a start or an end that does not fit the queues, an end
   *     before its start, or a time on a queue without {@code $timestamp}
   * @throws io.ytstream.core.plan.DataLossException when rows of the range were trimmed and the
   *     policy is to fail
   */
  public StaticReadPlan plan(Bound start, Bound end, long maxRowsPerTask, DataLossPolicy policy) {
    if (start.position() instanceof StartingOffsets.Latest) {
      throw new IllegalArgumentException(
          "option "
              + start.option()
              + " = latest starts a static read at the end of every partition, so it reads"
              + " nothing: use earliest, a row index per partition, or starting_timestamp (for"
              + " rows that arrive later, use spark.readStream)");
    }
    if (end.position() instanceof StartingOffsets.Earliest || hasEarliest(end.position())) {
      throw new IllegalArgumentException(
          "option "
              + end.option()
              + " ends a static read at the first row of a partition (earliest, -2), so it reads"
              + " nothing there: use latest (-1) or a row index (exclusive)");
    }
    QueueBounds bounds = readBounds();
    StreamOffsets from = resolve(start, bounds);
    StreamOffsets to = resolve(end, bounds);
    Optional<EndBeforeStart> reversed = StaticReadPlanner.endBeforeStart(from, to, bounds);
    if (reversed.isPresent()) {
      throw new IllegalArgumentException(endBeforeStart(reversed.get(), start, end));
    }
    return StaticReadPlanner.plan(from, to, bounds, maxRowsPerTask, policy);
  }

  /** Core's refusal in the user's words: both options, what each gives the partition, the rows. */
  private static String endBeforeStart(EndBeforeStart reversed, Bound start, Bound end) {
    PartitionId p = reversed.partition();
    return "the static read of "
        + p.queue().path()
        + " partition "
        + p.index()
        + " ends before it starts: option "
        + end.option()
        + " = "
        + given(end.position(), p)
        + " ends it at row "
        + reversed.end()
        + " (exclusive), option "
        + start.option()
        + " = "
        + given(start.position(), p)
        + " starts it at row "
        + reversed.start()
        + ". Give an end at or after the start, or swap the two";
  }

  /** What {@code position} says for {@code partition}, as the user wrote it. */
  private static String given(StartingOffsets position, PartitionId partition) {
    if (position instanceof StartingOffsets.Earliest) {
      return "earliest";
    }
    if (position instanceof StartingOffsets.Latest) {
      return "latest";
    }
    if (position instanceof StartingOffsets.AtTimestamp t) {
      return t.epochMillis() + " (" + Instant.ofEpochMilli(t.epochMillis()) + ")";
    }
    StartingOffsets.Specific s = (StartingOffsets.Specific) position;
    Map<Integer, Long> ofQueue = s.offsets().get(partition.queue().path());
    Long offset = ofQueue == null ? null : ofQueue.get(partition.index());
    if (offset == null) {
      return "(no offset for the partition)";
    }
    String form =
        offset == StartingOffsets.EARLIEST
            ? " (earliest)"
            : offset == StartingOffsets.LATEST ? " (latest)" : "";
    return "{\""
        + partition.queue().path()
        + "\": {\""
        + partition.index()
        + "\": "
        + offset
        + "}}"
        + form;
  }

  private StreamOffsets resolve(Bound bound, QueueBounds bounds) {
    if (bound.position() instanceof StartingOffsets.AtTimestamp t) {
      return byTime.offsets(bounds, t.epochMillis(), bound.option());
    }
    return StartOffsetResolver.resolve(bound.position(), bounds, bound.option());
  }

  private static boolean hasEarliest(StartingOffsets position) {
    if (position instanceof StartingOffsets.Specific s) {
      for (Map<Integer, Long> partitions : s.offsets().values()) {
        if (partitions.containsValue(StartingOffsets.EARLIEST)) {
          return true;
        }
      }
    }
    return false;
  }
}
