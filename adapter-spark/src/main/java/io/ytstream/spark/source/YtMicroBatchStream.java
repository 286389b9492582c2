package io.ytstream.spark.source;

import io.ytstream.application.AdvanceConsumer;
import io.ytstream.application.FindOffsetByTimestamp;
import io.ytstream.application.MeasureLag;
import io.ytstream.application.PlanMicroBatch;
import io.ytstream.application.RealTimeBatchBoundary;
import io.ytstream.application.ResumeOrStartQuery;
import io.ytstream.application.TriggerPacing;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StartingOffsets;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.QueueBounds;
import io.ytstream.core.plan.TaskAssignment;
import io.ytstream.ports.TableDescription;
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
import io.ytstream.spark.types.ColumnSpec;
import io.ytstream.spark.types.QueueRowConverter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;
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
 * <p>Real-time Mode ({@link SupportsRealTimeMode}): Spark's calls at a batch boundary turned into
 * {@link RealTimeBatchBoundary} (one open-ended task per queue partition from the batch's start;
 * where the tasks stopped is the batch's end; the consumer follows durable ends). This class gives
 * it the consumer moves on a thread of their own, after the boundary ({@link
 * BackgroundConsumerAdvance}), and the queue's bounds read every second on another ({@link
 * PrefetchedBounds}): no task reads between two real-time batches, so the boundary makes no request
 * in line while the prefetched bounds are fresh. Where a (re)started query starts is {@link
 * ResumeOrStartQuery}'s.
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
  private final ResumeOrStartQuery resume;
  private final RealTimeBatchBoundary boundary;

  /** Tells this query run's real-time tasks from a predecessor's ({@link CarriedRows}). */
  private final String readId = UUID.randomUUID().toString();

  private volatile QueueBounds lastBounds;

  /** When the last batch with rows was planned (0 before the first: a minimum never delays it). */
  private final TriggerPacing pacing;

  private volatile Optional<QueueBounds> availableNowTarget = Optional.empty();
  private final AtomicLong lostRows = new AtomicLong();
  private volatile boolean realTime;
  private volatile BackgroundConsumerAdvance background;
  private volatile PrefetchedBounds prefetched;

  /** Lag in bytes and seconds; made at the first report, when the queues' columns are read. */
  private volatile MeasureLag lag;

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
    this.pacing = new TriggerPacing(planner);
    this.advancer = new AdvanceConsumer(cluster.consumerOffsets(), spec.consumer(), spec.queues());
    this.resume =
        new ResumeOrStartQuery(
            planner,
            advancer,
            spec.consumer(),
            // Asked for only when starting_timestamp places a new query.
            Optional.of(
                new FindOffsetByTimestamp(
                    (partition, offset, maxRows) ->
                        cluster.queueRangeReader().pull(partition, offset, maxRows))));
    this.boundary =
        new RealTimeBatchBoundary(planner, advancer, this::boundsReadAhead, this::moveConsumer);
  }

  @Override
  public Offset initialOffset() {
    Optional<SourceMetadata> stored = SourceMetadata.read(metadataDir, hadoopConf);
    StreamOffsets start =
        resume.initialOffsets(
            stored.map(m -> new ResumeOrStartQuery.Recorded(m.consumer(), m.initial())),
            spec.startingOffsets(),
            metadataDir.toString());
    if (stored.isPresent()) {
      return new YtOffset(start);
    }
    SourceMetadata written =
        new SourceMetadata(spec.consumer(), start).writeIfAbsent(metadataDir, hadoopConf);
    LOG.info(
        "yt source starts from {}: {}",
        spec.startingOffsets().isEmpty()
            ? "the consumer"
            : spec.startingOffsets().get() instanceof StartingOffsets.AtTimestamp
                ? "option starting_timestamp"
                : "option starting_offsets",
        written.initial());
    return new YtOffset(written.initial());
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
    StreamOffsets consumer;
    QueueBounds bounds;
    if (!realTime) {
      bounds = planner.readBounds();
      // Before the consumer follows start: a start the queue no longer fits must not move it.
      PlanMicroBatch.checkPositions(start, bounds);
      consumer = advancer.bringLevel(start);
    } else {
      RealTimeBatchBoundary.Planning planning = boundary.atLatestOffset(start);
      bounds = planning.bounds();
      consumer = planning.consumer();
    }
    lastBounds = bounds;
    QueueBounds planBounds =
        availableNowTarget.map(t -> PlanMicroBatch.capped(bounds, t)).orElse(bounds);
    PlanMicroBatch.PlannedEnd planned =
        pacing.plan(
            start,
            planBounds,
            consumer,
            ReadLimits.fromSpark(limit),
            availableNowTarget.isPresent(),
            System.currentTimeMillis());
    if (planned.heldBack()) {
      LOG.debug("yt source: fewer than min_rows_per_trigger rows wait; batch held back");
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

  @Override
  public InputPartition[] planInputPartitions(Offset startOffset, Offset endOffset) {
    StreamOffsets end = YtOffset.of(endOffset);
    if (lastBounds == null) {
      // A batch Spark runs again after a restart comes without latestOffset: its end, from the
      // checkpoint, is checked against the queue once, as latestOffset checks every start.
      QueueBounds bounds = readBounds();
      PlanMicroBatch.checkPositions(end, bounds);
      lastBounds = bounds;
    }
    List<TaskAssignment> tasks =
        PlanMicroBatch.tasks(PlanMicroBatch.ranges(YtOffset.of(startOffset), end));
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
    RealTimeBatchBoundary.Tasks tasks = boundary.tasks(YtOffset.of(startOffset));
    lastBounds = tasks.bounds();
    SparkContext sc = SparkContext.getOrCreate();
    // Checked again per batch: the queue may have been resharded since the query started.
    RealTimeSlots.checkQuery(this, tasks.starts().keySet(), RealTimeSlots.of(sc), 0);
    List<InputPartition> out = new ArrayList<>();
    tasks.starts().forEach((p, from) -> out.add(new YtRealTimeInputPartition(p, from)));
    return out.toArray(new InputPartition[0]);
  }

  /** The batch's end: where each task stopped, over the batch's start for anything unread. */
  @Override
  public Offset mergeOffsets(PartitionOffset[] offsets) {
    List<RealTimeBatchBoundary.TaskEnd> ends = new ArrayList<>();
    for (PartitionOffset o : offsets) {
      YtPartitionOffset yt = (YtPartitionOffset) o;
      ends.add(new RealTimeBatchBoundary.TaskEnd(yt.partition(), yt.offset()));
    }
    return new YtOffset(boundary.merge(ends));
  }

  /**
   * Real-time Mode moves the consumer off the batch boundary ({@link BackgroundConsumerAdvance}).
   */
  @Override
  public void commit(Offset end) {
    if (realTime) {
      boundary.committed(YtOffset.of(end));
    } else {
      advancer.bringLevel(YtOffset.of(end));
    }
  }

  /** Real-time Mode: a durable end, handed to the consumer's thread when there is one. */
  private void moveConsumer(StreamOffsets durableEnd) {
    BackgroundConsumerAdvance b = background;
    if (b != null) {
      b.advanceTo(durableEnd);
    } else {
      advancer.bringLevel(durableEnd);
    }
  }

  /** Real-time Mode: the bounds read in the background, while fresh. */
  private Optional<QueueBounds> boundsReadAhead() {
    PrefetchedBounds p = prefetched;
    return p == null ? Optional.empty() : p.fresh();
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
   * totalRowsBehindLatest}; bytes behind ({@code min/max/avg/totalBytesBehindLatest}) where every
   * queue declares {@code $cumulative_data_weight}, seconds behind ({@code
   * min/max/avgSecondsBehindLatest}) where every queue declares {@code $timestamp} ({@link
   * MeasureLag}); and {@code lostRows}, rows skipped with fail_on_data_loss=false.
   */
  @Override
  public Map<String, String> metrics(Optional<Offset> latestConsumedOffset) {
    Map<String, String> out = new TreeMap<>();
    out.put("lostRows", Long.toString(lostRows.get()));
    // Real-time Mode: the ends read in the background within the last second are the latest seen;
    // the batch's own bounds date from its start, before the rows that arrived while it ran.
    QueueBounds bounds = realTime ? boundsReadAhead().orElse(lastBounds) : lastBounds;
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
      putBytesAndSeconds(out, bounds, consumed);
    }
    return out;
  }

  /** A report without bytes and seconds beats a failed query: a failed read leaves them out. */
  private void putBytesAndSeconds(
      Map<String, String> out, QueueBounds bounds, StreamOffsets consumed) {
    MeasureLag.Lag measured;
    try {
      measured = lagMeasure().measure(bounds, consumed);
    } catch (RuntimeException e) {
      LOG.warn("yt source: lag in bytes and seconds left out of this progress report", e);
      return;
    }
    if (measured.bytesKnown()) {
      putSpread(out, "BytesBehindLatest", measured, p -> p.bytes().getAsLong(), true);
    }
    if (measured.secondsKnown()) {
      putSpread(out, "SecondsBehindLatest", measured, p -> p.seconds().getAsLong(), false);
    }
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
      for (QueueId queue : spec.queues()) {
        TableDescription d = cluster.tableMetadata().describe(queue.path());
        boolean weight = false;
        boolean timestamp = false;
        for (TableDescription.Column c : d.columns()) {
          weight |= c.name().equals(ColumnSpec.CUMULATIVE_DATA_WEIGHT);
          timestamp |= c.name().equals(ColumnSpec.TIMESTAMP);
        }
        declared.put(queue, new MeasureLag.LagColumns(weight, timestamp));
      }
      m = new MeasureLag(cluster.queueReader(), spec.consumer(), declared);
      lag = m;
    }
    return m;
  }

  private QueueBounds readBounds() {
    return planner.readBounds();
  }

  @Override
  public String toString() {
    return "YtMicroBatchStream[" + spec.queues() + " via " + spec.consumer() + "]";
  }
}
