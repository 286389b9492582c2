package io.ytstream.application;

import io.ytstream.application.checkpoint.QueryCheckpoint;
import io.ytstream.application.checkpoint.SourceRecord;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StartingOffsets;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.QueueBounds;
import io.ytstream.core.plan.RangesBetween;
import io.ytstream.core.plan.TaskAssigner;
import io.ytstream.core.plan.TaskAssignment;
import io.ytstream.core.plan.TaskSplit;
import io.ytstream.core.plan.TriggerLimit;
import io.ytstream.ports.TableDescription;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * The {@code yt} streaming source, one method per call a streaming engine makes of it, each running
 * the protocol's steps in their order. Spark's {@code MicroBatchStream} (with Real-time Mode and
 * Trigger.AvailableNow) translates its calls into these methods and nothing else; the simulation
 * makes the same calls in Spark's order.
 *
 * <ul>
 *   <li>{@link #initialOffset}: the start the checkpoint recorded, else where the consumer (or the
 *       user's start) places a new query, recorded under {@code sources/<i>} ({@link
 *       ResumeOrStartQuery}).
 *   <li>{@link #latestOffset}: the start is durable (its {@code commits/N} exists) in a micro-batch
 *       query; the queue's bounds are read, the start is checked against them <em>before</em> the
 *       consumer follows it, then the batch is planned under the trigger's limit ({@link
 *       TriggerPacing}). In Real-time Mode the consumer follows {@link #commit} only ({@link
 *       RealTimeBatchBoundary}: there the start may not be durable yet).
 *   <li>{@link #planInputPartitions}: the batch's ranges, one task each or cut by {@code min_tasks}
 *       and {@code max_rows_per_task}; a batch Spark runs again after a restart comes without
 *       {@link #latestOffset}, so its logged end is checked against the queue once.
 *   <li>{@link #commit}: Spark logged the batch's {@code commits/N}; the consumer follows.
 *   <li>Real-time Mode: {@link #prepareForRealTimeMode}, then {@link #latestOffset}, {@link
 *       #realTimeTasks} and {@link #mergeRealTimeEnds} at each boundary ({@link
 *       RealTimeBatchBoundary}).
 * </ul>
 */
@DrivingUseCase
public final class StreamingSource {

  private static final String CUMULATIVE_DATA_WEIGHT = "$cumulative_data_weight";
  private static final String TIMESTAMP = "$timestamp";

  private final SourcePorts ports;
  private final ConsumerId consumer;
  private final List<QueueId> queues;
  private final Optional<StartingOffsets> starting;
  private final QueryCheckpoint checkpoint;
  private final int sourceIndex;
  private final PlanMicroBatch planner;
  private final TaskSplit split;
  private final AdvanceConsumer advancer;
  private final ResumeOrStartQuery resume;
  private final TriggerPacing pacing;
  private final AtomicLong lostRows = new AtomicLong();

  private volatile QueueBounds lastBounds;
  private volatile Optional<QueueBounds> availableNowTarget = Optional.empty();
  private volatile RealTimeBatchBoundary realTime;
  private volatile MeasureLag lag;
  private volatile MeasureLag.Lag lastLag;
  private volatile boolean recorded;

  /** Where {@link #initialOffset} took the start from, for the engine's log. */
  public enum StartedFrom {
    CHECKPOINT,
    CONSUMER,
    STARTING_OFFSETS,
    STARTING_TIMESTAMP
  }

  /** The source's start and where it came from. */
  public record Start(StreamOffsets offsets, StartedFrom from) {
    public Start {
      Objects.requireNonNull(offsets, "offsets");
      Objects.requireNonNull(from, "from");
    }
  }

  /**
   * @param sourceIndex the source's place among the query's sources (its folder {@code sources/<i>}
   *     in the checkpoint)
   */
  public StreamingSource(
      SourcePorts ports,
      ConsumerId consumer,
      List<QueueId> queues,
      PlanLimits limits,
      Optional<StartingOffsets> starting,
      QueryCheckpoint checkpoint,
      int sourceIndex) {
    this.ports = Objects.requireNonNull(ports, "ports");
    this.consumer = Objects.requireNonNull(consumer, "consumer");
    this.queues = List.copyOf(queues);
    this.starting = Objects.requireNonNull(starting, "starting");
    this.checkpoint = Objects.requireNonNull(checkpoint, "checkpoint");
    this.sourceIndex = sourceIndex;
    this.split = limits.taskSplit();
    this.planner =
        new PlanMicroBatch(
            ports.metadata(),
            consumer,
            queues,
            limits,
            new CapBatchBytes(ports.reader(), consumer));
    this.advancer = new AdvanceConsumer(ports.consumers(), consumer, queues);
    this.resume =
        new ResumeOrStartQuery(
            planner,
            advancer,
            consumer,
            new FindOffsetByTimestamp(
                (partition, offset, maxRows) ->
                    ports.rangeReader().pull(partition, offset, maxRows)));
    this.pacing = new TriggerPacing(planner);
  }

  /** Spark's {@code initialOffset()}: where the query's first batch starts. */
  public Start initialOffset() {
    Optional<SourceRecord> stored = checkpoint.source(sourceIndex);
    String where = checkpoint.location() + "/sources/" + sourceIndex;
    StreamOffsets start =
        resume.initialOffsets(
            stored.map(r -> new ResumeOrStartQuery.Recorded(r.consumer(), r.initial())),
            starting,
            where);
    recorded = true;
    if (stored.isPresent()) {
      return new Start(start, StartedFrom.CHECKPOINT);
    }
    SourceRecord written = checkpoint.recordSource(sourceIndex, new SourceRecord(consumer, start));
    StartedFrom from =
        starting.isEmpty()
            ? StartedFrom.CONSUMER
            : starting.get() instanceof StartingOffsets.AtTimestamp
                ? StartedFrom.STARTING_TIMESTAMP
                : StartedFrom.STARTING_OFFSETS;
    return new Start(written.initial(), from);
  }

  /**
   * Spark's {@code latestOffset(start, limit)}: the end of the next batch from {@code start} (in a
   * micro-batch query the end of the last batch with a {@code commits/N} entry, so durable), under
   * the trigger's {@code limit}; {@code end == start} means no batch now.
   *
   * @param nowMs the engine's clock, for {@code min_rows_per_trigger}'s delay
   * @throws io.ytstream.core.plan.UntrustedPositionsException when the queue no longer fits {@code
   *     start}; the consumer has not moved
   * @throws io.ytstream.core.plan.DataLossException when rows were trimmed unread and the policy is
   *     to fail
   */
  public PlanMicroBatch.PlannedEnd latestOffset(
      StreamOffsets start, TriggerLimit limit, long nowMs) {
    QueueBounds bounds;
    StreamOffsets consumerNow;
    RealTimeBatchBoundary rt = realTime;
    if (rt == null) {
      bounds = planner.readBounds();
      // Before the consumer follows start: a start the queue no longer fits must not move it.
      PlanMicroBatch.checkPositions(start, bounds);
      consumerNow = advancer.bringLevel(start);
    } else {
      RealTimeBatchBoundary.Planning planning = rt.atLatestOffset(start);
      bounds = planning.bounds();
      consumerNow = planning.consumer();
    }
    recordIfMissing(start);
    lastBounds = bounds;
    Optional<QueueBounds> target = availableNowTarget;
    QueueBounds planBounds = target.map(t -> bounds.cappedAt(t)).orElse(bounds);
    // Real-time batches end where their tasks stop: no pulls to size an end nothing uses.
    PlanMicroBatch.PlannedEnd planned =
        pacing.plan(start, planBounds, consumerNow, limit, target.isPresent(), nowMs, rt == null);
    lostRows.addAndGet(planned.lostRowCount());
    return planned;
  }

  /**
   * Spark's {@code planInputPartitions(start, end)}: the batch's tasks, one per range or ranges cut
   * as {@code min_tasks} and {@code max_rows_per_task} say ({@link TaskAssigner#assign}). A batch
   * run again gets its tasks from its logged offsets and the options of this run.
   */
  public List<TaskAssignment> planInputPartitions(StreamOffsets start, StreamOffsets end) {
    if (lastBounds == null) {
      // A batch Spark runs again after a restart comes without latestOffset: its end, from the
      // checkpoint, is checked against the queue once, as latestOffset checks every start.
      QueueBounds bounds = planner.readBounds();
      PlanMicroBatch.checkPositions(end, bounds);
      lastBounds = bounds;
    }
    recordIfMissing(start);
    return TaskAssigner.assign(RangesBetween.of(start, end), split);
  }

  /**
   * A checkpoint Spark resumes without asking {@link #initialOffset} may lack this source's record:
   * one SPYT started holds Spark's logs only. The first batch this source plans records the
   * consumer and that batch's start, as a new checkpoint records its first, so the sinks find the
   * consumer of every queue read.
   */
  private void recordIfMissing(StreamOffsets start) {
    if (!recorded) {
      if (checkpoint.source(sourceIndex).isEmpty()) {
        checkpoint.recordSourceIfAbsent(sourceIndex, new SourceRecord(consumer, start));
      }
      recorded = true;
    }
  }

  /** Spark's {@code commit(end)}: the batch ending at {@code end} is logged done. */
  public void commit(StreamOffsets end) {
    RealTimeBatchBoundary rt = realTime;
    if (rt != null) {
      rt.committed(end);
    } else {
      advancer.bringLevel(end);
    }
  }

  /** Spark's {@code prepareForTriggerAvailableNow()}: the run stops at the ends seen now. */
  public void prepareForTriggerAvailableNow() {
    availableNowTarget = Optional.of(planner.readBounds());
  }

  /**
   * Spark's {@code prepareForRealTimeMode()}: from now on batches are open-ended tasks, each
   * reading up to {@code partitionsPerTask} queue partitions.
   *
   * @param boundsReadAhead recent bounds read off the engine's thread, if any
   * @param moveConsumer where durable ends go to bring the consumer level (in line or on a thread)
   * @return the partitions of each task a batch would run now, for the engine's slot check
   * @throws IllegalArgumentException when {@code min_tasks} or {@code max_rows_per_task} is set: a
   *     real-time task reads its partitions open-ended, from where the last one stopped, so a
   *     partition has one reader
   */
  public List<SortedSet<PartitionId>> prepareForRealTimeMode(
      Supplier<Optional<QueueBounds>> boundsReadAhead,
      Consumer<StreamOffsets> moveConsumer,
      int partitionsPerTask) {
    if (split.mayCutRanges()) {
      throw new IllegalArgumentException(
          (split.minTasks().isPresent() && split.maxRowsPerTask().isPresent()
                  ? "options "
                  : "option ")
              + split.describe()
              + " split a partition's rows of a micro-batch across tasks, but Real-time Mode"
              + " reads each queue partition with one open-ended task that goes on from where"
              + " the last one stopped, so it has no batch range to split. Remove min_tasks and"
              + " max_rows_per_task from this query, or run it with a micro-batch trigger (e.g."
              + " trigger(Trigger.ProcessingTime(\"10 seconds\"))) to read a backlog with"
              + " several tasks per partition");
    }
    RealTimeBatchBoundary rt =
        new RealTimeBatchBoundary(
            planner, advancer, boundsReadAhead, moveConsumer, partitionsPerTask);
    realTime = rt;
    return rt.taskPartitions(planner.readBounds().asMap().keySet());
  }

  /**
   * Real-time Mode's {@code planInputPartitions(start)}: the open-ended tasks, each its partitions
   * and their start offsets ({@link io.ytstream.core.plan.RealTimeTaskGroups}).
   */
  public List<SortedMap<PartitionId, Long>> realTimeTasks(StreamOffsets start) {
    RealTimeBatchBoundary.Tasks tasks = boundary().tasks(start);
    lastBounds = tasks.bounds();
    return tasks.perTask();
  }

  /** Real-time Mode's {@code mergeOffsets}: the batch's end from where its tasks stopped. */
  public StreamOffsets mergeRealTimeEnds(List<RealTimeBatchBoundary.TaskEnd> ends) {
    return boundary().merge(ends);
  }

  /** Every queue's bounds, read now. */
  public QueueBounds readBounds() {
    return planner.readBounds();
  }

  /** The advance of the consumer to a durable end, for a thread of the engine's. */
  public void bringConsumerLevel(StreamOffsets durableEnd) {
    advancer.bringLevel(durableEnd);
  }

  /** Spark's {@code reportLatestOffset()}: each partition's end seen last, if any was seen. */
  public Optional<StreamOffsets> reportLatestOffset() {
    QueueBounds bounds = lastBounds;
    if (bounds == null) {
      return Optional.empty();
    }
    TreeMap<PartitionId, Long> totals = new TreeMap<>();
    bounds.asMap().forEach((p, b) -> totals.put(p, b.totalRowCount()));
    return Optional.of(StreamOffsets.of(totals));
  }

  /**
   * Spark's {@code metrics(latestConsumedOffset)}: {@code lostRows} (rows skipped with
   * fail_on_data_loss=false), then rows behind per partition (the last seen end minus the offset
   * consumed: {@code min/max/avg/totalRowsBehindLatest}), bytes behind ({@code
   * min/max/avg/totalBytesBehindLatest}) where every queue declares {@code
   * $cumulative_data_weight}, and seconds behind ({@code min/max/avgSecondsBehindLatest}) where
   * every queue declares {@code $timestamp} ({@link MeasureLag}). A failed read of the lag columns
   * leaves bytes and seconds out: a report without them beats a failed query. A read interrupted
   * because the query is stopping is thrown, for Spark to end the stop cleanly.
   *
   * @param latest the bounds to measure against (Real-time Mode passes the freshest it has); empty
   *     for the last the source planned with
   * @param lagUnreadable told why bytes and seconds are left out of this report
   */
  public Map<String, String> metrics(
      Optional<StreamOffsets> latestConsumed,
      Optional<QueueBounds> latest,
      Consumer<RuntimeException> lagUnreadable) {
    Map<String, String> out = new TreeMap<>();
    out.put("lostRows", Long.toString(lostRows.get()));
    QueueBounds bounds = latest.orElse(lastBounds);
    if (bounds == null || latestConsumed.isEmpty()) {
      return out;
    }
    StreamOffsets consumed = latestConsumed.get();
    long min = Long.MAX_VALUE;
    long max = 0;
    long total = 0;
    int n = 0;
    List<MeasureLag.PartitionLag> rowsOnly = new ArrayList<>();
    for (Map.Entry<PartitionId, PartitionBounds> e : bounds.asMap().entrySet()) {
      long behind =
          Math.max(
              0,
              e.getValue().totalRowCount()
                  - consumed.getOrDefault(e.getKey(), e.getValue().trimmedRowCount()));
      rowsOnly.add(
          new MeasureLag.PartitionLag(
              e.getKey(), behind, OptionalLong.empty(), OptionalLong.empty()));
      min = Math.min(min, behind);
      max = Math.max(max, behind);
      total += behind;
      n++;
    }
    if (n == 0) {
      return out;
    }
    out.put("minRowsBehindLatest", Long.toString(min));
    out.put("maxRowsBehindLatest", Long.toString(max));
    out.put("avgRowsBehindLatest", String.format(Locale.ROOT, "%.1f", (double) total / n));
    out.put("totalRowsBehindLatest", Long.toString(total));
    MeasureLag.Lag measured;
    try {
      measured = lagMeasure().measure(bounds, consumed);
    } catch (RuntimeException e) {
      if (Interruptions.isInterruption(e)) {
        // The query is stopping: not a lag read to warn about, and Spark ends the stop cleanly.
        throw e;
      }
      lastLag = new MeasureLag.Lag(rowsOnly);
      lagUnreadable.accept(e);
      return out;
    }
    lastLag = measured;
    if (measured.bytesKnown()) {
      putSpread(out, "BytesBehindLatest", measured, p -> p.bytes().getAsLong(), true);
    }
    if (measured.secondsKnown()) {
      putSpread(out, "SecondsBehindLatest", measured, p -> p.seconds().getAsLong(), false);
    }
    return out;
  }

  /**
   * Each partition's lag as of the last {@link #metrics} call that had a consumed offset: rows, and
   * bytes and seconds where they were measured (rows only when the lag columns could not be read).
   */
  public Optional<MeasureLag.Lag> lastLag() {
    return Optional.ofNullable(lastLag);
  }

  private RealTimeBatchBoundary boundary() {
    RealTimeBatchBoundary rt = realTime;
    if (rt == null) {
      throw new IllegalStateException("a real-time call before prepareForRealTimeMode");
    }
    return rt;
  }

  private static void putSpread(
      Map<String, String> out,
      String suffix,
      MeasureLag.Lag measured,
      ToLongFunction<MeasureLag.PartitionLag> value,
      boolean withTotal) {
    long min = Long.MAX_VALUE;
    long max = 0;
    long total = 0;
    for (MeasureLag.PartitionLag p : measured.partitions()) {
      long v = value.applyAsLong(p);
      min = Math.min(min, v);
      max = Math.max(max, v);
      total += v;
    }
    out.put("min" + suffix, Long.toString(min));
    out.put("max" + suffix, Long.toString(max));
    out.put(
        "avg" + suffix,
        String.format(Locale.ROOT, "%.1f", (double) total / measured.partitions().size()));
    if (withTotal) {
      out.put("total" + suffix, Long.toString(total));
    }
  }

  private MeasureLag lagMeasure() {
    MeasureLag m = lag;
    if (m == null) {
      Map<QueueId, MeasureLag.LagColumns> declared = new TreeMap<>();
      for (QueueId queue : queues) {
        TableDescription d = ports.tables().describe(queue.path());
        boolean weight = false;
        boolean timestamp = false;
        for (TableDescription.Column c : d.columns()) {
          weight |= c.name().equals(CUMULATIVE_DATA_WEIGHT);
          timestamp |= c.name().equals(TIMESTAMP);
        }
        declared.put(queue, new MeasureLag.LagColumns(weight, timestamp));
      }
      m = new MeasureLag(ports.reader(), consumer, declared);
      lag = m;
    }
    return m;
  }
}
