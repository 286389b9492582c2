package io.ytstream.simulation;

import io.ytstream.application.CommitTransactionalSink;
import io.ytstream.application.InsertIntoBatchTransaction;
import io.ytstream.application.PlanMicroBatch;
import io.ytstream.application.PushBatchShare;
import io.ytstream.application.ReadRanges;
import io.ytstream.application.SourcePorts;
import io.ytstream.application.StreamingSource;
import io.ytstream.application.WriteChunk;
import io.ytstream.application.checkpoint.OffsetLogEntry;
import io.ytstream.application.checkpoint.QueryCheckpoint;
import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.DataLoss;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.TaskSplit;
import io.ytstream.simulation.Step.Kind;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.SplittableRandom;

/**
 * One incarnation of the Spark driver with the ytstream source and sink, as a queue of Spark's
 * steps run one at a time. It holds Spark's order and nothing else: each step is one call the Spark
 * adapter makes too, of the same application classes ({@link StreamingSource} for the source's
 * callbacks, {@link ReadRanges} for a task's read, {@link WriteChunk}, {@link
 * InsertIntoBatchTransaction} and {@link PushBatchShare} for a task's write, {@link
 * SimStreamingWrite} for the sink's writer factory and commit on the driver, through {@link
 * CommitTransactionalSink}), over the ports with the schedule's faults, and through the checkpoint
 * files in the format that ships ({@link QueryCheckpoint}).
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

  private final QueryCheckpoint checkpoint;
  private final StreamingSource source;
  private final SimStreamingWrite sink;
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
    long maxRowsPerTablet =
        ctx.settingRowLimit > 0 ? ctx.settingRowLimit : DEFAULT_MAX_ROWS_PER_TABLET;
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
            PlanLimits.of(w.maxRowsPerPartition(), w.dataLossPolicy())
                .withTaskSplit(taskSplit(ctx, id)),
            Optional.empty(),
            checkpoint,
            0);
    this.sink = new SimStreamingWrite(ctx, id, checkpoint, maxRowsPerTablet);
    this.logs = new SparkLogFiles(ctx.io, id);
    TaskAttempts executor = new TaskAttempts(ctx, id, maxRowsPerTablet, this::reportLoss);
    this.scheduler = new TaskScheduler(ctx, id, executor, steps);
  }

  /**
   * The driver's {@code min_tasks} and {@code max_rows_per_task}, when the run splits tasks: drawn
   * from the run's seed and the driver, so each restart may run a logged batch under other options
   * (none, either or both).
   */
  static TaskSplit taskSplit(SimContext ctx, int driver) {
    if (ctx.taskSplitSeed.isEmpty()) {
      return TaskSplit.none();
    }
    SplittableRandom random =
        new SplittableRandom(ctx.taskSplitSeed.getAsLong() * 0x2545F4914F6CDD1DL + driver);
    int kind = random.nextInt(4);
    OptionalInt minTasks =
        kind == 1 || kind == 3 ? OptionalInt.of(2 + random.nextInt(5)) : OptionalInt.empty();
    OptionalLong maxRows =
        kind >= 2
            ? OptionalLong.of(1 + random.nextLong(ctx.workload.maxRowsPerPartition()))
            : OptionalLong.empty();
    TaskSplit split = new TaskSplit(minTasks, maxRows);
    ctx.trace("d" + driver + " splits tasks by [" + split.describe() + "]");
    return split;
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
    boolean driverSide = !zombie && s.kind() != Kind.TASK && s.kind() != Kind.REDUCE_TASK;
    boolean callsBefore = ctx.io.driverCalls(driverSide);
    RuntimeException failure = null;
    try {
      execute(s);
    } catch (RuntimeException e) {
      failure = e;
    } finally {
      ctx.io.driverCalls(callsBefore);
    }
    if (driverSide && ctx.io.takeStop()) {
      // Read and clear the flag: the user's restart runs on a thread nobody interrupted.
      ctx.verifier.onQueryStopped(s.toString(), failure, Thread.interrupted());
      throw new SimulatedCrash("stopped by the user during " + s);
    }
    if (failure != null) {
      throw StepFailures.end(ctx, s, failure, zombie);
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
          batch.tmp =
              logs.writeTmp(
                  offsetsDir,
                  batch.id,
                  batch.id < w.spytLoggedBatches()
                      ? SpytOffsetLog.entry(batch.end)
                      : OffsetLogEntry.of(batch.end));
      case RENAME_OFFSETS -> logs.publish(offsetsDir, batch.id, batch.tmp);
      case COMMIT_SOURCES -> source.commit(SparkRecovery.loggedEnd(checkpoint, batch.id - 1));
      case PLAN_TASKS ->
          batch.planTasks(source.planInputPartitions(batch.start, batch.end), w.reduceTasks());
      case CREATE_WRITER_FACTORY -> {
        sink.createWriterFactory(batch);
        scheduler.expandTasks(batch);
      }
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
    SparkRecovery.Resume resume =
        SparkRecovery.recover(ctx, id, logs, offsetsDir, commitsDir, checkpoint, source);
    nextBatchId = resume.nextBatchId();
    nextStart = resume.nextStart();
    if (resume.rerun() != null) {
      batch = resume.rerun();
      enqueueRun();
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
    ctx.verifier.beforePlan();
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

  /** What the query reports; a zombie's reports reach nobody (its query was superseded). */
  private void reportLoss(PartitionId partition, long fromRow, long toRow) {
    if (!zombie) {
      ctx.reportLoss(partition, fromRow, toRow);
    }
  }

  /** Spark commits the sink once every task has committed. */
  private void sinkCommit() {
    for (int t = 0; t < batch.tasks.size(); t++) {
      if (!batch.done[t]) {
        throw new QueryFailure("task " + t + " has not finished", false, null);
      }
    }
    sink.commit(batch, zombie);
  }

  private void batchEnd() {
    ctx.batchesCommitted++;
    nextBatchId = batch.id + 1;
    nextStart = batch.end;
    SparkProgress.finishTrigger(ctx, source, batch.end, plannedLostRows, zombie);
    if (ctx.tracing()) {
      ctx.trace("d" + id + " batch " + batch.id + " done, end " + OffsetsJson.write(batch.end));
    }
    batch = null;
    if (zombie && --zombieBatchesLeft <= 0) {
      finished = true;
    }
  }
}
