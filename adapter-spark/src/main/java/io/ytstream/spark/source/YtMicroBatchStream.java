package io.ytstream.spark.source;

import io.ytstream.application.RealTimeBatchBoundary;
import io.ytstream.application.SourcePorts;
import io.ytstream.application.StreamingSource;
import io.ytstream.application.checkpoint.QueryCheckpoint;
import io.ytstream.application.offsets.LoggedOffsets;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.QueueBounds;
import io.ytstream.core.plan.TaskAssignment;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.checkpoint.HadoopCheckpointFiles;
import io.ytstream.spark.config.SplitSourceQueries;
import io.ytstream.spark.config.UserInputErrors;
import io.ytstream.spark.metrics.LagBoard;
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
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * The driver side of the {@code yt} source: each of Spark's calls is one call of the application's
 * {@link StreamingSource}, plus the translation of Spark's types. The order of the protocol's steps
 * lives there, so the simulation runs the same sequence.
 *
 * <p>What stays here is Spark's machinery: in Real-time Mode the consumer moves on a thread of its
 * own after the boundary ({@link BackgroundConsumerAdvance}) and the queue's bounds are read every
 * second on another ({@link PrefetchedBounds}), so the boundary makes no request in line while the
 * prefetched bounds are fresh; the slot check ({@link RealTimeSlots}); and the rows real-time tasks
 * carry between batches ({@link CarriedRows}).
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
  private final YtCluster cluster;
  private final StreamingSource source;

  /** Tells this query run's real-time tasks from a predecessor's ({@link CarriedRows}). */
  private final String readId = UUID.randomUUID().toString();

  /** This source's key on the lag board the metrics plugin reads ({@link LagBoard}). */
  private final long lagSource = LagBoard.newSource();

  private volatile boolean realTime;

  /** Whether SPYT's offsets were logged as converted: Spark deserializes a start more than once. */
  private final AtomicBoolean spytConversionLogged = new AtomicBoolean();

  private volatile BackgroundConsumerAdvance background;
  private volatile PrefetchedBounds prefetched;

  public YtMicroBatchStream(YtSourceSpec spec, String metadataPath, Configuration hadoopConf) {
    this.spec = spec;
    // Spark creates the query's sources on its stream execution thread, where it later plans the
    // sink: the producer sink refuses a split source there.
    SplitSourceQueries.markThisQueryThread(spec.limits().taskSplit());
    this.cluster = spec.cluster().connect();
    Path metadataDir = new Path(metadataPath);
    this.source =
        new StreamingSource(
            new SourcePorts(
                queue -> {
                  try {
                    return cluster.queueMetadata().partitions(queue);
                  } catch (RuntimeException e) {
                    throw UserInputErrors.partitionsFailed(queue.path(), e);
                  }
                },
                cluster.consumerOffsets(),
                cluster.queueReader(),
                // Asked for only when starting_timestamp places a query.
                (partition, offset, maxRows) ->
                    cluster.queueRangeReader().pull(partition, offset, maxRows),
                cluster.tableMetadata()),
            spec.consumer(),
            spec.queues(),
            spec.limits(),
            spec.startingOffsets(),
            new QueryCheckpoint(HadoopCheckpointFiles.ofSourceFolder(metadataDir, hadoopConf)),
            HadoopCheckpointFiles.sourceIndex(metadataDir));
  }

  @Override
  public Offset initialOffset() {
    StreamingSource.Start start = source.initialOffset();
    if (start.from() != StreamingSource.StartedFrom.CHECKPOINT) {
      LOG.info(
          "yt source starts from {}: {}",
          switch (start.from()) {
            case STARTING_TIMESTAMP -> "option starting_timestamp";
            case STARTING_OFFSETS -> "option starting_offsets";
            default -> "the consumer";
          },
          start.offsets());
    }
    return new YtOffset(start.offsets());
  }

  @Override
  public Offset deserializeOffset(String json) {
    LoggedOffsets logged = YtOffset.parseLogged(json);
    if (logged.convertedFromSpyt() && spytConversionLogged.compareAndSet(false, true)) {
      LOG.info(
          "yt source resumes from a checkpoint SPYT wrote: SPYT's offsets {} (the last row read of"
              + " each partition) are read as {} (the next row to read); the batches that follow"
              + " are logged in ytstream's form",
          logged.spytText().orElseThrow(),
          logged.offsets());
    }
    return new YtOffset(logged.offsets());
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
    var planned =
        source.latestOffset(
            YtOffset.of(startOffset), ReadLimits.fromSpark(limit), System.currentTimeMillis());
    if (planned.heldBack()) {
      LOG.debug("yt source: fewer than min_rows_per_trigger rows wait; batch held back");
    }
    if (planned.placesNewPartitions()) {
      LOG.info("yt source: new partitions placed at {}", planned.end());
    }
    if (!planned.losses().isEmpty()) {
      LOG.warn("yt source skipped trimmed rows (fail_on_data_loss=false): {}", planned.losses());
    }
    return new YtOffset(planned.end());
  }

  @Override
  public InputPartition[] planInputPartitions(Offset startOffset, Offset endOffset) {
    List<TaskAssignment> tasks =
        source.planInputPartitions(YtOffset.of(startOffset), YtOffset.of(endOffset));
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
              source::bringConsumerLevel, spec.consumer(), BackgroundConsumerAdvance.QUIET_MS);
    }
    if (prefetched == null) {
      prefetched =
          PrefetchedBounds.start(
              source::readBounds,
              System::currentTimeMillis,
              PrefetchedBounds.REFRESH_MS,
              spec.consumer().toString());
    }
    // The tasks named here are checked against the slots where every batch's are: when they are
    // planned (planInputPartitions(start)), the one place that sees the queue as each batch reads
    // it.
    source.prepareForRealTimeMode(
        this::boundsReadAhead, this::moveConsumer, spec.realTimePartitionsPerTask());
    RealTimeQueries.markThisQueryThread();
  }

  /**
   * Real-time Mode: open-ended tasks starting at {@code start}, each reading up to {@code
   * real_time_partitions_per_task} queue partitions.
   */
  @Override
  public InputPartition[] planInputPartitions(Offset startOffset) {
    List<SortedMap<PartitionId, Long>> tasks = source.realTimeTasks(YtOffset.of(startOffset));
    SparkContext sc = SparkContext.getOrCreate();
    // Checked here, for every batch and so before the first one's tasks start: the queue may have
    // been resharded since the query started. On a cluster executors may still be registering
    // (at the start, or a lost executor's replacement), so the check waits for them instead of
    // failing the query on a gap.
    List<SortedSet<PartitionId>> partitions = new ArrayList<>();
    tasks.forEach(t -> partitions.add(new TreeSet<>(t.keySet())));
    RealTimeSlots.checkQuery(
        this,
        partitions,
        spec.realTimePartitionsPerTask(),
        RealTimeSlots.of(sc),
        RealTimeSlots.fixed(sc) ? 0 : RealTimeSlots.REGISTRATION_WAIT_MS,
        RealTimeSlots.pipelinedShuffleTasks(
            sc,
            org.apache.spark.sql.SparkSession.active()
                .conf()
                .get("spark.sql.shuffle.partitions", "200")));
    List<InputPartition> out = new ArrayList<>();
    tasks.forEach(t -> out.add(new YtRealTimeInputPartition(t)));
    return out.toArray(new InputPartition[0]);
  }

  /**
   * The batch's end: where each task stopped in each of its partitions, over the batch's start for
   * anything unread.
   */
  @Override
  public Offset mergeOffsets(PartitionOffset[] offsets) {
    List<RealTimeBatchBoundary.TaskEnd> ends = new ArrayList<>();
    for (PartitionOffset o : offsets) {
      ends.add(new RealTimeBatchBoundary.TaskEnd(((YtPartitionOffset) o).next()));
    }
    return new YtOffset(source.mergeRealTimeEnds(ends));
  }

  @Override
  public void commit(Offset end) {
    source.commit(YtOffset.of(end));
  }

  /** Real-time Mode: a durable end, handed to the consumer's thread when there is one. */
  private void moveConsumer(StreamOffsets durableEnd) {
    BackgroundConsumerAdvance b = background;
    if (b != null) {
      b.advanceTo(durableEnd);
    } else {
      source.bringConsumerLevel(durableEnd);
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
    LagBoard.withdraw(lagSource);
    cluster.close();
  }

  @Override
  public void prepareForTriggerAvailableNow() {
    source.prepareForTriggerAvailableNow();
  }

  @Override
  public Offset reportLatestOffset() {
    return source.reportLatestOffset().map(YtOffset::new).orElse(null);
  }

  /**
   * The lag metrics of {@link StreamingSource#metrics}; Real-time Mode measures against the ends
   * read in the background within the last second (the batch's own bounds date from its start).
   * With the metrics plugin, each partition's lag also goes to its gauges ({@link LagBoard}).
   */
  @Override
  public Map<String, String> metrics(Optional<Offset> latestConsumedOffset) {
    Map<String, String> out =
        source.metrics(
            latestConsumedOffset.map(YtOffset::of),
            realTime ? boundsReadAhead() : Optional.empty(),
            e ->
                LOG.warn(
                    "yt source: lag in bytes and seconds left out of this progress report", e));
    if (LagBoard.enabled()) {
      source.lastLag().ifPresent(lag -> LagBoard.publish(lagSource, lag.partitions()));
    }
    return out;
  }

  @Override
  public String toString() {
    return "YtMicroBatchStream[" + spec.queues() + " via " + spec.consumer() + "]";
  }
}
