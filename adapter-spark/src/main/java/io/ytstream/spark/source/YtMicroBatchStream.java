package io.ytstream.spark.source;

import io.ytstream.application.AdvanceConsumer;
import io.ytstream.application.PlanMicroBatch;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.QueueBounds;
import io.ytstream.core.plan.TaskAssignment;
import io.ytstream.core.plan.TriggerLimit;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.checkpoint.SourceMetadata;
import io.ytstream.spark.config.UserInputErrors;
import io.ytstream.spark.realtime.BackgroundConsumerAdvance;
import io.ytstream.spark.realtime.CarriedRows;
import io.ytstream.spark.realtime.PrefetchedBounds;
import io.ytstream.spark.realtime.RealTimeQueries;
import io.ytstream.spark.realtime.RealTimeSlots;
import io.ytstream.spark.realtime.YtPartitionOffset;
import io.ytstream.spark.realtime.YtRealTimeInputPartition;
import io.ytstream.spark.realtime.YtRealTimeReaderFactory;
import io.ytstream.spark.types.QueueRowConverter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream;
import org.apache.spark.sql.connector.read.streaming.Offset;
import org.apache.spark.sql.connector.read.streaming.PartitionOffset;
import org.apache.spark.sql.connector.read.streaming.ReadLimit;
import org.apache.spark.sql.connector.read.streaming.ReportsSourceMetrics;
import org.apache.spark.sql.connector.read.streaming.SupportsRealTimeMode;
import org.apache.spark.sql.connector.read.streaming.SupportsTriggerAvailableNow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver side of the {@code yt} source: Spark's calls turned into the application's use cases.
 * {@link PlanMicroBatch} plans a batch and spreads it over tasks, {@link AdvanceConsumer} (core's
 * commit-lag rule and out-of-transaction state machine) moves the consumer.
 *
 * <p>Where the consumer moves: Spark calls {@link #latestOffset(Offset, ReadLimit)} with {@code
 * start} = the end of the last batch whose {@code commits/N} entry is written (also after a
 * restart), so that is a safe point to bring the consumer level, even when the queue is idle and no
 * new batch runs; {@link #commit(Offset)} does the same as soon as Spark reports a batch done.
 *
 * <p>Real-time Mode ({@link SupportsRealTimeMode}): one task per queue partition, open-ended, from
 * the batch's start; the tasks report where they stopped and {@link #mergeOffsets} makes that the
 * batch's end. Spark calls {@code latestOffset} and {@code commit} at each real-time batch boundary
 * too, so the consumer follows the same commit-lag rule as in micro-batches, but on a thread of its
 * own, after the boundary ({@link BackgroundConsumerAdvance}); the queue's bounds are read every
 * second on another ({@link PrefetchedBounds}). No task reads between two real-time batches, so the
 * boundary makes no request in line (it made nine, then one) while the prefetched bounds are fresh;
 * both planning calls reuse what {@code latestOffset} took.
 */
public final class YtMicroBatchStream
    implements MicroBatchStream,
        SupportsTriggerAvailableNow,
        ReportsSourceMetrics,
        SupportsRealTimeMode {

  private static final Logger LOG = LoggerFactory.getLogger(YtMicroBatchStream.class);

  /** How long a stopping real-time query waits for the consumer to reach the last batch end. */
  static final long STOP_WAIT_MS = 10_000;

  private final YtSourceSpec spec;
  private final Path metadataDir;
  private final Configuration hadoopConf;
  private final YtCluster cluster;
  private final PlanMicroBatch planner;
  private final AdvanceConsumer advancer;

  /** Tells this query run's real-time tasks from a predecessor's ({@link CarriedRows}). */
  private final String readId = UUID.randomUUID().toString();

  private volatile QueueBounds lastBounds;

  /** When the last batch with rows was planned (0 before the first: a minimum never delays it). */
  private volatile long lastBatchAtMs;

  private volatile Optional<QueueBounds> availableNowTarget = Optional.empty();
  private final AtomicLong lostRows = new AtomicLong();
  private volatile boolean realTime;
  private volatile StreamOffsets realTimeStart = StreamOffsets.empty();
  private volatile BackgroundConsumerAdvance background;
  private volatile PrefetchedBounds prefetched;

  /**
   * Real-time Mode: the end of the last batch, as {@link #mergeOffsets} built it from its tasks.
   */
  private volatile StreamOffsets mergedEnd;

  /** Real-time Mode: the bounds read by the last latestOffset, and the start they were read for. */
  private volatile BoundsAt boundsAt;

  private record BoundsAt(StreamOffsets start, QueueBounds bounds) {}

  public YtMicroBatchStream(YtSourceSpec spec, String metadataPath, Configuration hadoopConf) {
    this.spec = spec;
    this.metadataDir = new Path(metadataPath);
    this.hadoopConf = hadoopConf;
    this.cluster = spec.cluster().connect();
    this.planner =
        new PlanMicroBatch(
            queue -> {
              try {
                return cluster.queueMetadata().partitions(queue);
              } catch (RuntimeException e) {
                throw UserInputErrors.partitionsFailed(queue.path(), e);
              }
            },
            cluster.consumerOffsets(),
            spec.consumer(),
            spec.queues(),
            spec.limits());
    this.advancer = new AdvanceConsumer(cluster.consumerOffsets(), spec.consumer(), spec.queues());
  }

  @Override
  public Offset initialOffset() {
    Optional<SourceMetadata> stored = SourceMetadata.read(metadataDir, hadoopConf);
    if (stored.isPresent()) {
      checkSameSource(stored.get());
      return new YtOffset(stored.get().initial());
    }
    StreamOffsets start =
        planner.initialOffsets(planner.readBounds(), advancer.read(), spec.startingOffsets());
    SourceMetadata written =
        new SourceMetadata(spec.consumer(), start).writeIfAbsent(metadataDir, hadoopConf);
    LOG.info(
        "yt source starts from {}: {}",
        spec.startingOffsets().isPresent() ? "option starting_offsets" : "the consumer",
        written.initial());
    return new YtOffset(written.initial());
  }

  private void checkSameSource(SourceMetadata stored) {
    if (!stored.consumer().equals(spec.consumer())) {
      throw new IllegalArgumentException(
          "the checkpoint at "
              + metadataDir
              + " was written for consumer "
              + stored.consumer()
              + ", but the query now reads with "
              + spec.consumer()
              + ": use a new checkpointLocation when changing option consumer_path");
    }
  }

  @Override
  public Offset deserializeOffset(String json) {
    return YtOffset.parse(json);
  }

  /** The trigger's size from the options (Kafka's way: Spark passes it back on each trigger). */
  @Override
  public ReadLimit getDefaultReadLimit() {
    return ReadLimits.toSpark(spec.trigger());
  }

  @Override
  public Offset latestOffset() {
    throw new UnsupportedOperationException(
        "the yt source plans with latestOffset(start, limit); Spark calls that one");
  }

  @Override
  public Offset latestOffset(Offset startOffset, ReadLimit limit) {
    StreamOffsets start = YtOffset.of(startOffset);
    // start is durable (its commits/N entry exists): bring a lagging consumer level, idle or not.
    BackgroundConsumerAdvance b = background;
    StreamOffsets consumer;
    QueueBounds bounds;
    if (b == null) {
      consumer = advancer.bringLevel(start);
      bounds = planner.readBounds();
    } else {
      b.advanceTo(start);
      bounds = boundsForBoundary(start);
      boundsAt = new BoundsAt(start, bounds);
      consumer = consumerForUnplaced(start, bounds);
    }
    lastBounds = bounds;
    QueueBounds planBounds =
        availableNowTarget.map(t -> PlanMicroBatch.capped(bounds, t)).orElse(bounds);
    TriggerLimit trigger = ReadLimits.fromSpark(limit);
    if (availableNowTarget.isPresent()) {
      // AvailableNow ends at the first trigger without rows: a minimum must not hold one back.
      trigger = trigger.withoutMinimum();
    }
    long now = System.currentTimeMillis();
    PlanMicroBatch.PlannedEnd planned =
        planner.plan(start, planBounds, consumer, trigger, now - lastBatchAtMs);
    if (planned.heldBack()) {
      LOG.debug("yt source: fewer than min_rows_per_trigger rows wait; batch held back");
    } else if (!planned.end().equals(start)) {
      // Only a batch that runs restarts the delay: rows after an idle spell do not wait again.
      lastBatchAtMs = now;
    }
    if (planned.placesNewPartitions()) {
      LOG.info("yt source: new partitions placed at {}", planned.end());
    }
    if (!planned.losses().isEmpty()) {
      lostRows.addAndGet(planned.lostRowCount());
      LOG.warn("yt source skipped trimmed rows (fail_on_data_loss=false): {}", planned.losses());
    }
    return new YtOffset(planned.end());
  }

  /**
   * Real-time Mode: the bounds read ahead when {@code start} is the end this stream merged from its
   * tasks (they read up to there, so rows at least that far exist; bounds read before the tasks'
   * last rows are raised to it), else read now: after a (re)start the first boundary checks the
   * checkpoint's offsets against the queue's real bounds.
   */
  private QueueBounds boundsForBoundary(StreamOffsets start) {
    PrefetchedBounds p = prefetched;
    if (p == null || !start.equals(mergedEnd)) {
      return readBounds();
    }
    return p.fresh().map(b -> b.atLeast(start)).orElseGet(this::readBounds);
  }

  @Override
  public InputPartition[] planInputPartitions(Offset startOffset, Offset endOffset) {
    List<TaskAssignment> tasks =
        PlanMicroBatch.tasks(
            PlanMicroBatch.ranges(YtOffset.of(startOffset), YtOffset.of(endOffset)));
    InputPartition[] out = new InputPartition[tasks.size()];
    for (int i = 0; i < tasks.size(); i++) {
      out[i] = new YtInputPartition(tasks.get(i).ranges());
    }
    return out;
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    if (!realTime) {
      return new YtReaderFactory(spec);
    }
    return new YtRealTimeReaderFactory(
        spec.cluster(),
        spec.consumer(),
        new QueueRowConverter(spec.columns(), spec.includeServiceColumns(), spec.multiQueue()),
        spec.failOnDataLoss(),
        readId);
  }

  @Override
  public void prepareForRealTimeMode() {
    realTime = true;
    if (background == null) {
      background =
          new BackgroundConsumerAdvance(
              advancer, spec.consumer(), BackgroundConsumerAdvance.QUIET_MS);
    }
    if (prefetched == null) {
      prefetched =
          PrefetchedBounds.start(
              this::readBounds,
              System::currentTimeMillis,
              PrefetchedBounds.REFRESH_MS,
              spec.consumer().toString());
    }
    RealTimeQueries.markThisQueryThread();
    SparkContext sc = SparkContext.getOrCreate();
    RealTimeSlots.checkQuery(
        this,
        readBounds().asMap().keySet(),
        RealTimeSlots.of(sc),
        RealTimeSlots.fixed(sc) ? 0 : RealTimeSlots.REGISTRATION_WAIT_MS);
  }

  /** Real-time Mode: one open-ended task per queue partition, starting at {@code start}. */
  @Override
  public InputPartition[] planInputPartitions(Offset startOffset) {
    StreamOffsets start = YtOffset.of(startOffset);
    // Spark plans each real-time batch right after latestOffset(start), twice: reuse its bounds.
    BoundsAt known = boundsAt;
    QueueBounds bounds =
        known != null && known.start().equals(start) ? known.bounds() : readBounds();
    lastBounds = bounds;
    SparkContext sc = SparkContext.getOrCreate();
    // Checked again per batch: the queue may have been resharded since the query started.
    RealTimeSlots.checkQuery(this, bounds.asMap().keySet(), RealTimeSlots.of(sc), 0);
    StreamOffsets resolved =
        planner.startOffsets(start, bounds, consumerForUnplaced(start, bounds));
    realTimeStart = resolved;
    List<InputPartition> tasks = new ArrayList<>();
    for (PartitionId p : bounds.asMap().keySet()) {
      tasks.add(new YtRealTimeInputPartition(p, resolved.getOrDefault(p, 0)));
    }
    return tasks.toArray(new InputPartition[0]);
  }

  /** The batch's end: where each task stopped, over the batch's start for anything unread. */
  @Override
  public Offset mergeOffsets(PartitionOffset[] offsets) {
    TreeMap<PartitionId, Long> ends = new TreeMap<>();
    for (PartitionOffset o : offsets) {
      YtPartitionOffset yt = (YtPartitionOffset) o;
      ends.merge(yt.partition(), yt.offset(), Math::max);
    }
    StreamOffsets end = realTimeStart.overlay(StreamOffsets.of(ends));
    mergedEnd = end;
    return new YtOffset(end);
  }

  /**
   * Real-time Mode moves the consumer off the batch boundary ({@link BackgroundConsumerAdvance}).
   */
  @Override
  public void commit(Offset end) {
    BackgroundConsumerAdvance b = background;
    if (b != null) {
      b.advanceTo(YtOffset.of(end));
    } else {
      advancer.bringLevel(YtOffset.of(end));
    }
  }

  /** True once the real-time bounds read ahead are there to plan with. */
  public boolean boundsPrefetched() {
    PrefetchedBounds p = prefetched;
    return p != null && p.fresh().isPresent();
  }

  /** True unless a real-time consumer move is waiting or running. */
  public boolean consumerIdle() {
    BackgroundConsumerAdvance b = background;
    return b == null || b.idle();
  }

  @Override
  public void stop() {
    BackgroundConsumerAdvance b = background;
    if (b != null) {
      b.finish(STOP_WAIT_MS);
    }
    PrefetchedBounds p = prefetched;
    if (p != null) {
      p.close();
    }
    // The rows its tasks left in this JVM (local mode; executors drop theirs after KEEP_MS).
    CarriedRows.forget(readId);
    cluster.close();
  }

  @Override
  public void prepareForTriggerAvailableNow() {
    availableNowTarget = Optional.of(readBounds());
  }

  @Override
  public Offset reportLatestOffset() {
    QueueBounds bounds = lastBounds;
    if (bounds == null) {
      return null;
    }
    TreeMap<PartitionId, Long> totals = new TreeMap<>();
    bounds.asMap().forEach((p, b) -> totals.put(p, b.totalRowCount()));
    return new YtOffset(StreamOffsets.of(totals));
  }

  /**
   * Rows behind per partition (the last seen end of each partition minus the consumed offset):
   * {@code minRowsBehindLatest}, {@code maxRowsBehindLatest}, {@code avgRowsBehindLatest}, {@code
   * totalRowsBehindLatest}; and {@code lostRows}, rows skipped with fail_on_data_loss=false.
   */
  @Override
  public Map<String, String> metrics(Optional<Offset> latestConsumedOffset) {
    Map<String, String> out = new TreeMap<>();
    out.put("lostRows", Long.toString(lostRows.get()));
    QueueBounds bounds = lastBounds;
    if (bounds == null || latestConsumedOffset.isEmpty()) {
      return out;
    }
    StreamOffsets consumed = YtOffset.of(latestConsumedOffset.get());
    long min = Long.MAX_VALUE;
    long max = 0;
    long total = 0;
    int n = 0;
    for (Map.Entry<PartitionId, PartitionBounds> e : bounds.asMap().entrySet()) {
      long behind =
          Math.max(
              0,
              e.getValue().totalRowCount()
                  - consumed.getOrDefault(e.getKey(), e.getValue().trimmedRowCount()));
      min = Math.min(min, behind);
      max = Math.max(max, behind);
      total += behind;
      n++;
    }
    if (n > 0) {
      out.put("minRowsBehindLatest", Long.toString(min));
      out.put("maxRowsBehindLatest", Long.toString(max));
      out.put("avgRowsBehindLatest", String.format(Locale.ROOT, "%.1f", (double) total / n));
      out.put("totalRowsBehindLatest", Long.toString(total));
    }
    return out;
  }

  private QueueBounds readBounds() {
    return planner.readBounds();
  }

  /**
   * The consumer's offsets when some partition of {@code bounds} is not in {@code start} (the queue
   * was resharded: the consumer places the new ones), else none: real-time batches skip the
   * request.
   */
  private StreamOffsets consumerForUnplaced(StreamOffsets start, QueueBounds bounds) {
    for (PartitionId p : bounds.asMap().keySet()) {
      if (start.get(p).isEmpty()) {
        return readConsumer();
      }
    }
    return StreamOffsets.empty();
  }

  private StreamOffsets readConsumer() {
    return advancer.read();
  }

  @Override
  public String toString() {
    return "YtMicroBatchStream[" + spec.queues() + " via " + spec.consumer() + "]";
  }
}
