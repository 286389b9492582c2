package io.ytstream.simulation;

import io.ytstream.application.BatchNotCommittedException;
import io.ytstream.application.BatchTooLargeException;
import io.ytstream.application.CommitTransactionalSink;
import io.ytstream.application.ConsumerFencedException;
import io.ytstream.application.InsertIntoBatchTransaction;
import io.ytstream.application.OutputTarget;
import io.ytstream.application.PlanMicroBatch;
import io.ytstream.application.PushBatchShare;
import io.ytstream.application.ReadRanges;
import io.ytstream.application.SourcePorts;
import io.ytstream.application.StreamingSource;
import io.ytstream.application.WriteChunk;
import io.ytstream.application.WriterReport;
import io.ytstream.application.checkpoint.BatchEnd;
import io.ytstream.application.checkpoint.OffsetLogEntry;
import io.ytstream.application.checkpoint.QueryCheckpoint;
import io.ytstream.application.checkpoint.SourceRecord;
import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.core.delivery.CheckpointRecovery;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.DataLoss;
import io.ytstream.core.plan.DataLossException;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.UntrustedPositionsException;
import io.ytstream.simulation.Step.Kind;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One incarnation of the Spark driver with the ytstream source and sink, as a queue of Spark's
 * steps run one at a time. It holds Spark's order and nothing else: each step is one call the Spark
 * adapter makes too, of the same application classes ({@link StreamingSource} for the source's
 * callbacks, {@link ReadRanges} for a task's read, {@link WriteChunk}, {@link
 * InsertIntoBatchTransaction} and {@link PushBatchShare} for a task's write, {@link
 * CommitTransactionalSink} for the sink's commit on the driver), over the ports with the schedule's
 * faults, and through the checkpoint files in the format that ships ({@link QueryCheckpoint}).
 *
 * <p>The order is Spark 4.2's {@code MicroBatchExecution} (sql/core/.../streaming/runtime/
 * MicroBatchExecution.scala): recover from the logs ({@code populateStartOffsets}); plan ({@code
 * constructNextBatch}: {@code getStartOffset} calls {@code initialOffset()} when there is no start,
 * then {@code latestOffset(start, limit)}); write {@code offsets/N} ({@code markMicroBatchStart});
 * commit N-1 to the source ({@code commitSources}, from {@code offsets/N-1}); run the batch ({@code
 * runBatch}: {@code planInputPartitions(start, end)}, the sink's writer factory, the tasks); commit
 * the sink on the driver; write {@code commits/N} ({@code markMicroBatchEnd}). A batch re-run after
 * a restart skips the planning, the offset log and the source commit, as Spark's {@code
 * isCurrentBatchConstructed} does, and its start is {@code offsets/N-1} or, for batch 0, {@code
 * initialOffset()}. Everything the driver holds is in this object: a crash discards it, and a new
 * driver recovers from the cluster and the checkpoint alone.
 */
final class Driver {

  /** The batch transaction's timeout (the transactional sink's). */
  static final Duration TRANSACTION_TIMEOUT = Duration.ofSeconds(30);

  /** Producer mode: the query id that names the sessions (Spark's, kept by the checkpoint). */
  static final String QUERY_ID = "sim-query";

  /** The cluster's rows per tablet in one transaction when the run sets none (YTsaurus's). */
  private static final long DEFAULT_MAX_ROWS_PER_TABLET = 100_000;

  private final SimContext ctx;
  private final Workload w;
  final int id;
  private final ArrayDeque<Step> steps = new ArrayDeque<>();
  private final YPath offsetsDir = Workload.CHECKPOINT.child("offsets");
  private final YPath commitsDir = Workload.CHECKPOINT.child("commits");

  private final long maxRowsPerTablet;

  private final QueryCheckpoint checkpoint;
  private final StreamingSource source;
  private final CommitTransactionalSink sink;
  private final SparkLogFiles logs;
  private final TaskScheduler scheduler;

  private boolean initialized;
  private long nextBatchId;
  private StreamOffsets nextStart;
  private BatchInFlight batch;
  private boolean zombie;
  private int zombieBatchesLeft;
  private boolean finished;
  private Kind lastKind;

  /** The trimmed rows this driver's plans skipped, which the source's lostRows metric counts. */
  private long plannedLostRows;

  /** When this driver's source last ran a batch with rows, for the pacing check. */
  private long lastBatchAtMs;

  private boolean ranBatch;

  Driver(SimContext ctx, int id) {
    this.ctx = ctx;
    this.w = ctx.workload;
    this.id = id;
    this.maxRowsPerTablet = ctx.rowLimit > 0 ? ctx.rowLimit : DEFAULT_MAX_ROWS_PER_TABLET;
    this.checkpoint =
        new QueryCheckpoint(new StoreCheckpointFiles(ctx.io, Workload.CHECKPOINT, "d" + id));
    this.source =
        new StreamingSource(
            new SourcePorts(
                ctx.io,
                ctx.io,
                ctx.io,
                ctx.cluster.ports().queueRangeReader(),
                ctx.cluster.ports().tableMetadata()),
            Workload.CONSUMER,
            w.queues(),
            PlanLimits.of(w.maxRowsPerPartition(), w.dataLossPolicy()),
            Optional.empty(),
            checkpoint,
            0);
    this.sink =
        new CommitTransactionalSink(
            ctx.io,
            ctx.io,
            TRANSACTION_TIMEOUT,
            checkpoint,
            new OutputTarget(Workload.OUTPUT, false, 1),
            maxRowsPerTablet);
    this.logs = new SparkLogFiles(ctx.io, id);
    TaskAttempts executor = new TaskAttempts(ctx, id, maxRowsPerTablet, this::reportLoss);
    this.scheduler = new TaskScheduler(ctx, id, executor, steps);
  }

  /** The old driver goes on with its batch (and at most one more) after a new one took over. */
  void becomeZombie() {
    zombie = true;
    zombieBatchesLeft = 2;
    ctx.trace("d" + id + " is now a zombie");
  }

  boolean finished() {
    return finished;
  }

  /** An AvailableNow run that reached the ends it saw at its start, and stopped. */
  boolean ranToItsEnd() {
    return finished && !zombie;
  }

  /** No batch in flight and nothing queued: the driver waits for data. */
  boolean idle() {
    return initialized && batch == null && steps.isEmpty();
  }

  boolean inFlight() {
    return batch != null;
  }

  Kind lastKind() {
    return lastKind;
  }

  /** Runs one step. */
  void step() {
    if (finished) {
      return;
    }
    if (steps.isEmpty()) {
      if (zombie && batch == null) {
        finished = true;
        return;
      }
      steps.add(Step.of(initialized ? Kind.PLAN : Kind.INIT));
    }
    Step s = steps.pollFirst();
    lastKind = s.kind();
    if (ctx.tracing()) {
      ctx.trace("d" + id + (zombie ? "z" : "") + " " + s + (batch != null ? " b" + batch.id : ""));
    }
    if (ctx.faults.fires(SimFault.CRASH_BEFORE_STEP)) {
      throw new SimulatedCrash("before " + s);
    }
    try {
      execute(s);
    } catch (SimulatedCrash | QueryFailure e) {
      throw e;
    } catch (DataLossException e) {
      throw dataLoss(e.losses());
    } catch (UntrustedPositionsException e) {
      // The checkpoint's offsets do not fit the queue any more: the query fails with the fix
      // named, and again after every restart.
      if (!zombie) {
        ctx.failedOnUntrustedPositions = true;
      }
      throw new QueryFailure(s + " failed: " + e.getMessage(), true, e);
    } catch (BatchTooLargeException e) {
      // The sink refuses the batch with the fix named (lower max_rows_per_partition or reshard
      // the output): it fails again after every restart, as a user's query would.
      if (!zombie) {
        ctx.failedOnTooLargeBatch = true;
      }
      throw new QueryFailure(s + " failed: " + e.getMessage(), true, e);
    } catch (RuntimeException e) {
      throw new QueryFailure(s + " failed: " + e.getMessage(), false, e);
    }
    if (ctx.faults.fires(SimFault.CRASH_AFTER_STEP)) {
      throw new SimulatedCrash("after " + s);
    }
  }

  private void execute(Step s) {
    switch (s.kind()) {
      case INIT -> init();
      case PLAN -> plan();
      case WRITE_OFFSETS_TMP ->
          batch.tmp = logs.writeTmp(offsetsDir, batch.id, OffsetLogEntry.of(batch.end));
      case RENAME_OFFSETS -> logs.publish(offsetsDir, batch.id, batch.tmp);
      case COMMIT_SOURCES -> source.commit(loggedEnd(batch.id - 1));
      case PLAN_TASKS ->
          batch.planTasks(source.planInputPartitions(batch.start, batch.end), w.reduceTasks());
      case CREATE_WRITER_FACTORY -> createWriterFactory();
      case TASK -> scheduler.runMapTask(batch, s, zombie);
      case REDUCE_TASK -> scheduler.runReduceTask(batch, s, zombie);
      case SINK_COMMIT -> sinkCommit();
      case WRITE_COMMITS_TMP ->
          batch.tmp = logs.writeTmp(commitsDir, batch.id, "v1\n{\"nextBatchWatermarkMs\":0}");
      case RENAME_COMMITS -> {
        logs.publish(commitsDir, batch.id, batch.tmp);
        batch.commitsWritten = true;
      }
      case BATCH_END -> batchEnd();
    }
  }

  // ---- recovery (MicroBatchExecution.populateStartOffsets) -----------------------------------

  private void init() {
    ctx.io.createDirectories(offsetsDir);
    ctx.io.createDirectories(commitsDir);
    OptionalLong latestOffsets = logs.latest(offsetsDir);
    OptionalLong latestCommit = logs.latest(commitsDir);
    CheckpointRecovery.Decision d = CheckpointRecovery.decide(latestOffsets, latestCommit);
    if (ctx.tracing()) {
      ctx.trace("d" + id + " recovery " + d.action() + " " + d.batch());
    }
    switch (d.action()) {
      case START_FRESH -> {
        nextBatchId = 0;
        nextStart = null;
        ctx.verifier.onRecovery(d, null, null);
      }
      case CONTINUE -> {
        nextBatchId = d.batch();
        nextStart = loggedEnd(d.batch() - 1);
        StreamOffsets before = d.batch() >= 2 ? loggedEnd(d.batch() - 2) : recordedInitial();
        ctx.verifier.onRecovery(d, before, nextStart);
      }
      case RERUN -> {
        long n = d.batch();
        StreamOffsets end = loggedEnd(n);
        // runBatch: the start is offsets/N-1, or for batch 0 the source's initialOffset().
        StreamOffsets start = n > 0 ? loggedEnd(n - 1) : source.initialOffset().offsets();
        ctx.verifier.onRecovery(d, start, end);
        batch = new BatchInFlight(n, start, end);
        enqueueRun();
      }
    }
    if (w.availableNow()) {
      // Trigger.AvailableNow: the run stops at the ends the queue has now.
      source.prepareForTriggerAvailableNow();
    }
    initialized = true;
  }

  // ---- planning (constructNextBatch) --------------------------------------------------------

  private void plan() {
    if (nextStart == null) {
      nextStart = source.initialOffset().offsets();
    }
    long nowMs = ctx.cluster.ports().time().nowMillis();
    PlanMicroBatch.PlannedEnd planned = source.latestOffset(nextStart, w.trigger(), nowMs);
    ctx.verifier.onPaced(nextStart, planned, ranBatch ? nowMs - lastBatchAtMs : Long.MAX_VALUE);
    if (!planned.heldBack() && !planned.end().equals(nextStart)) {
      lastBatchAtMs = nowMs;
      ranBatch = true;
    }
    for (DataLoss loss : planned.losses()) {
      reportLoss(loss.partition(), loss.requestedOffset(), loss.firstAvailableRow());
    }
    ctx.verifier.onPlanned(nextStart, planned);
    plannedLostRows += planned.lostRowCount();
    if (planned.end().equals(nextStart)) {
      // isNewDataAvailable is false: no batch, nothing written to the logs. An AvailableNow
      // run ends here (the next one is started by the user's scheduler).
      if (w.availableNow() && !zombie) {
        finished = true;
      }
      return;
    }
    batch = new BatchInFlight(nextBatchId, nextStart, planned.end());
    steps.add(Step.of(Kind.WRITE_OFFSETS_TMP));
    steps.add(Step.of(Kind.RENAME_OFFSETS));
    if (batch.id > 0) {
      steps.add(Step.of(Kind.COMMIT_SOURCES));
    }
    enqueueRun();
  }

  // ---- running the batch (runBatch) ---------------------------------------------------------

  private void enqueueRun() {
    boolean logFirst = ctx.mutant == Mutant.COMMIT_LOG_BEFORE_SINK;
    steps.add(Step.of(Kind.PLAN_TASKS));
    steps.add(Step.of(Kind.CREATE_WRITER_FACTORY));
    if (logFirst && !batch.commitsWritten) {
      steps.add(Step.of(Kind.WRITE_COMMITS_TMP));
      steps.add(Step.of(Kind.RENAME_COMMITS));
    }
    steps.add(Step.of(Kind.TASK)); // expanded once the tasks are planned
    steps.add(Step.of(Kind.SINK_COMMIT));
    if (!logFirst || batch.commitsWritten) {
      steps.add(Step.of(Kind.WRITE_COMMITS_TMP));
      steps.add(Step.of(Kind.RENAME_COMMITS));
    }
    steps.add(Step.of(Kind.BATCH_END));
  }

  /**
   * The sink's {@code createStreamingWriterFactory} on the driver: the transactional sink opens the
   * batch transaction; the producer sink reads the batch's source end from the newest {@code
   * offsets/N} for the sessions' user_meta.
   */
  private void createWriterFactory() {
    if (w.mode() == SimMode.TRANSACTIONAL) {
      batch.tx = sink.openBatch();
      batch.pinger =
          new SimTransactionPinger(
              batch.tx, TRANSACTION_TIMEOUT, ctx.cluster.ports().time().nowMillis());
    } else if (w.mode() == SimMode.PRODUCER) {
      batch.sourceEnd = checkpoint.latestBatchEnd().map(BatchEnd::offsets);
    }
    scheduler.expandTasks(batch);
  }

  private QueryFailure dataLoss(List<DataLoss> losses) {
    ctx.verifier.onDataLossFailure(losses);
    for (DataLoss loss : losses) {
      reportLoss(loss.partition(), loss.requestedOffset(), loss.firstAvailableRow());
    }
    if (!zombie) {
      ctx.failedOnDataLoss = true;
    }
    return new QueryFailure("data loss: " + losses, true, null);
  }

  /** What the query reports; a zombie's reports reach nobody (its query was superseded). */
  private void reportLoss(PartitionId partition, long fromRow, long toRow) {
    if (!zombie) {
      ctx.reportLoss(partition, fromRow, toRow);
    }
  }

  /**
   * StreamingWrite.commit on the driver: in transactional mode the application's {@link
   * CommitTransactionalSink} takes the writers' reports and the batch's ranges from the checkpoint,
   * decides and commits (a batch that does not commit fails the query, as in Spark, and runs again
   * after the restart); in the other modes the writers have flushed their own chunks.
   */
  private void sinkCommit() {
    for (int t = 0; t < batch.tasks.size(); t++) {
      if (!batch.done[t]) {
        throw new QueryFailure("task " + t + " has not finished", false, null);
      }
    }
    if (w.mode() != SimMode.TRANSACTIONAL) {
      return;
    }
    List<WriterReport> reports = new ArrayList<>();
    for (WriterReport r : batch.reports) {
      if (r != null) {
        reports.add(r);
      }
    }
    try {
      CommitTransactionalSink.Result result = sink.commit(batch.id, batch.tx, reports);
      if (ctx.tracing()) {
        ctx.trace("d" + id + " batch " + batch.id + " " + result);
      }
    } catch (RuntimeException e) {
      if (!zombie && !(e instanceof SimulatedCrash)) {
        ctx.verifier.onFailedWrite("batch " + batch.id + "'s sink commit", List.of(batch.tx.id()));
      }
      if (!zombie && e instanceof BatchTooLargeException) {
        long rows = 0; // the simulated output has one tablet
        for (WriterReport r : reports) {
          rows += r.rowsPerTablet()[0];
        }
        ctx.verifier.onBatchRefused(batch.id, rows, maxRowsPerTablet);
      }
      if (e instanceof BatchNotCommittedException || e instanceof ConsumerFencedException) {
        throw new QueryFailure(e.getMessage(), false, e);
      }
      throw e;
    }
  }

  private void batchEnd() {
    ctx.batchesCommitted++;
    nextBatchId = batch.id + 1;
    nextStart = batch.end;
    // ProgressReporter.finishTrigger: the source's latest offsets and metrics for the progress.
    Optional<StreamOffsets> latest = source.reportLatestOffset();
    ctx.verifier.onSourceProgress(
        batch.end,
        latest,
        source.metrics(Optional.of(batch.end), Optional.empty(), ctx.verifier::onLagUnreadable),
        plannedLostRows,
        zombie);
    if (!zombie && latest.isPresent()) {
      ctx.verifier.onLastLag(batch.end, latest.get(), source.lastLag());
    }
    if (ctx.tracing()) {
      ctx.trace("d" + id + " batch " + batch.id + " done, end " + OffsetsJson.write(batch.end));
    }
    batch = null;
    if (zombie && --zombieBatchesLeft <= 0) {
      finished = true;
    }
  }

  /** The source's end in {@code offsets/N}, as Spark deserializes it for the source. */
  private StreamOffsets loggedEnd(long n) {
    List<StreamOffsets> ends = checkpoint.batchEnd(n);
    return ends.isEmpty() ? StreamOffsets.empty() : ends.get(0);
  }

  /** For the checker: the start the source recorded for batch 0. */
  private StreamOffsets recordedInitial() {
    return checkpoint.source(0).map(SourceRecord::initial).orElse(StreamOffsets.empty());
  }
}
