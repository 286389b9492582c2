package io.ytstream.simulation;

import io.ytstream.application.BatchNotCommittedException;
import io.ytstream.application.BatchShareOutcome;
import io.ytstream.application.BatchTooLargeException;
import io.ytstream.application.ChunkedTaskWriter;
import io.ytstream.application.CommitTransactionalSink;
import io.ytstream.application.ConsumerFencedException;
import io.ytstream.application.InsertIntoBatchTransaction;
import io.ytstream.application.OutputTarget;
import io.ytstream.application.PlanMicroBatch;
import io.ytstream.application.ProducerTaskWriter;
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
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.DataLoss;
import io.ytstream.core.plan.DataLossException;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.TaskAssignment;
import io.ytstream.core.plan.UntrustedPositionsException;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.TransactionId;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

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

  /** Spark's steps; a crash may be scheduled before and after each. */
  enum Kind {
    INIT,
    PLAN,
    WRITE_OFFSETS_TMP,
    RENAME_OFFSETS,
    COMMIT_SOURCES,
    PLAN_TASKS,
    CREATE_WRITER_FACTORY,
    TASK,
    REDUCE_TASK,
    SINK_COMMIT,
    WRITE_COMMITS_TMP,
    RENAME_COMMITS,
    BATCH_END;

    /**
     * Whether the step can move the consumer or change what the invariants look at (the checker
     * skips the others, to keep the simulation fast). In producer mode a task's pushes move the
     * producer's sessions, which the checker follows push by push.
     */
    boolean mayMoveConsumerOrOutput(SimMode mode) {
      return switch (this) {
        case PLAN, COMMIT_SOURCES, SINK_COMMIT -> true;
        case TASK -> mode == SimMode.PRODUCER;
        default -> false;
      };
    }
  }

  /** One step; {@code task}/{@code attempt} are used by task steps. */
  record Step(Kind kind, int task, int attempt, boolean speculative) {
    private static final Step[] PLAIN = plainSteps();

    /** The step of a kind without task or attempt: one shared value per kind. */
    static Step of(Kind kind) {
      return PLAIN[kind.ordinal()];
    }

    private static Step[] plainSteps() {
      Step[] steps = new Step[Kind.values().length];
      for (Kind kind : Kind.values()) {
        steps[kind.ordinal()] = new Step(kind, 0, 0, false);
      }
      return steps;
    }

    @Override
    public String toString() {
      return kind == Kind.TASK || kind == Kind.REDUCE_TASK
          ? kind + "(" + task + "." + attempt + (speculative ? " speculative" : "") + ")"
          : kind.name();
    }
  }

  private static final Duration TRANSACTION_TIMEOUT = Duration.ofSeconds(30);
  private static final int MAX_TASK_FAILURES = 4;

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

  /** The text form of each queue, by queue index (what the idempotent sink keys rows by). */
  private final String[] queueKeys;

  private final long maxRowsPerTablet;

  /** The timeout of a producer share's transaction (the simulation's clock never expires it). */
  private static final Duration SHARE_TRANSACTION_TIMEOUT = Duration.ofSeconds(30);

  private final QueryCheckpoint checkpoint;
  private final StreamingSource source;
  private final WriteChunk chunks;
  private final InsertIntoBatchTransaction inserts;
  private final CommitTransactionalSink sink;
  private final PushBatchShare shares;

  private boolean initialized;
  private long nextBatchId;
  private StreamOffsets nextStart;
  private Batch batch;
  private int tmpSeq;
  private boolean zombie;
  private int zombieBatchesLeft;
  private boolean finished;
  private Kind lastKind;

  /** The trimmed rows this driver's plans skipped, which the source's lostRows metric counts. */
  private long plannedLostRows;

  /** When this driver's source last ran a batch with rows, for the pacing check. */
  private long lastBatchAtMs;

  private boolean ranBatch;

  /** The driver-side state of the batch in flight. */
  private final class Batch {
    final long id;
    final StreamOffsets start;
    final StreamOffsets end;
    List<TaskAssignment> tasks = List.of();
    YPath tmp;
    boolean commitsWritten;
    TabletTransaction tx;
    SimTransactionPinger pinger;
    Optional<StreamOffsets> sourceEnd = Optional.empty();
    boolean[] done;
    int[] failures;
    int[] attempts;
    int[][] authorized;
    WriterReport[] reports;
    List<TreeMap<Long, Long>> mapOutputs;

    Batch(long id, StreamOffsets start, StreamOffsets end) {
      this.id = id;
      this.start = start;
      this.end = end;
    }

    /** Spark's {@code planInputPartitions}: the tasks, and the bookkeeping for them. */
    void planTasks(List<TaskAssignment> planned) {
      tasks = planned;
      int n = Math.max(tasks.size(), w.reduceTasks());
      done = new boolean[2 * n];
      failures = new int[2 * n];
      attempts = new int[2 * n];
      authorized = new int[2][n];
      Arrays.fill(authorized[0], -1);
      Arrays.fill(authorized[1], -1);
      reports = new WriterReport[2 * n];
      mapOutputs = new ArrayList<>();
      for (int i = 0; i < tasks.size(); i++) {
        mapOutputs.add(null);
      }
    }

    /** Spark's OutputCommitCoordinator: the first attempt to ask may commit, no other. */
    boolean authorize(int stage, int task, int attempt) {
      if (authorized[stage][task] < 0) {
        authorized[stage][task] = attempt;
      }
      return authorized[stage][task] == attempt;
    }

    /** Spark 4.x: an authorized attempt that failed lets another attempt of its task commit. */
    void authorizedAttemptFailed(int stage, int task) {
      authorized[stage][task] = -1;
    }
  }

  Driver(SimContext ctx, int id) {
    this.ctx = ctx;
    this.w = ctx.workload;
    this.id = id;
    this.queueKeys = new String[w.queues().size()];
    for (int q = 0; q < queueKeys.length; q++) {
      queueKeys[q] = w.queues().get(q).key();
    }
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
    this.chunks =
        new WriteChunk(
            ctx.io,
            (attempt, outcome, error) ->
                ctx.trace("d" + id + " chunk attempt " + attempt + " failed (" + outcome + ")"));
    this.inserts =
        new InsertIntoBatchTransaction(
            ctx.io, (tx, cause) -> ctx.trace("d" + id + " insert failed; aborting " + tx));
    this.sink =
        new CommitTransactionalSink(
            ctx.io, checkpoint, new OutputTarget(Workload.OUTPUT, false, 1), maxRowsPerTablet);
    this.shares = new PushBatchShare(ctx.io, ctx.io);
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
          batch.tmp = writeTmp(offsetsDir, batch.id, OffsetLogEntry.of(batch.end));
      case RENAME_OFFSETS -> publish(offsetsDir, batch.id, batch.tmp);
      case COMMIT_SOURCES -> source.commit(loggedEnd(batch.id - 1));
      case PLAN_TASKS -> batch.planTasks(source.planInputPartitions(batch.start, batch.end));
      case CREATE_WRITER_FACTORY -> createWriterFactory();
      case TASK -> task(s);
      case REDUCE_TASK -> reduceTask(s);
      case SINK_COMMIT -> sinkCommit();
      case WRITE_COMMITS_TMP ->
          batch.tmp = writeTmp(commitsDir, batch.id, "v1\n{\"nextBatchWatermarkMs\":0}");
      case RENAME_COMMITS -> {
        publish(commitsDir, batch.id, batch.tmp);
        batch.commitsWritten = true;
      }
      case BATCH_END -> batchEnd();
    }
  }

  // ---- recovery (MicroBatchExecution.populateStartOffsets) -----------------------------------

  private void init() {
    ctx.io.createDirectories(offsetsDir);
    ctx.io.createDirectories(commitsDir);
    OptionalLong latestOffsets = latest(offsetsDir);
    OptionalLong latestCommit = latest(commitsDir);
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
        batch = new Batch(n, start, end);
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
    batch = new Batch(nextBatchId, nextStart, planned.end());
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
      batch.tx = ctx.io.start(TRANSACTION_TIMEOUT);
      batch.pinger =
          new SimTransactionPinger(
              batch.tx, TRANSACTION_TIMEOUT, ctx.cluster.ports().time().nowMillis());
    } else if (w.mode() == SimMode.PRODUCER) {
      batch.sourceEnd = checkpoint.latestBatchEnd().map(BatchEnd::offsets);
    }
    // The tasks Spark runs, in place of the placeholder enqueueRun left.
    List<Step> tasks = new ArrayList<>();
    for (int t = 0; t < batch.tasks.size(); t++) {
      tasks.add(new Step(Kind.TASK, t, batch.attempts[t]++, false));
    }
    if (w.query() == QueryKind.AGGREGATE && !batch.tasks.isEmpty()) {
      int base = batch.done.length / 2;
      for (int r = 0; r < w.reduceTasks(); r++) {
        tasks.add(new Step(Kind.REDUCE_TASK, r, batch.attempts[base + r]++, false));
      }
    }
    List<Step> rest = new ArrayList<>(steps);
    steps.clear();
    boolean expanded = false;
    for (Step step : rest) {
      if (!expanded && step.kind() == Kind.TASK) {
        steps.addAll(tasks);
        expanded = true;
      } else {
        steps.add(step);
      }
    }
  }

  private void task(Step s) {
    int t = s.task();
    if (batch.done[t] && !s.speculative()) {
      return; // a retry queued before another attempt of the task succeeded
    }
    int failArg = ctx.faults.tick(SimFault.TASK_FAILURE);
    if (ctx.faults.fires(SimFault.SPECULATION)) {
      steps.addFirst(new Step(Kind.TASK, t, batch.attempts[t]++, true));
    }
    int slowArg = ctx.faults.tick(SimFault.SLOW_TASK);
    if (slowArg >= 0 && batch.pinger != null && !zombie) {
      SlowTask.run(ctx, batch.pinger, TRANSACTION_TIMEOUT, slowArg);
    }
    try {
      List<QueueRow> rows = new ArrayList<>();
      for (OffsetRange range : batch.tasks.get(t).ranges()) {
        List<QueueRow> read =
            new ReadRanges(
                    ctx.io,
                    ctx.io,
                    Workload.CONSUMER,
                    List.of(range),
                    w.pullLimit(),
                    w.dataLossPolicy(),
                    loss ->
                        reportLoss(
                            loss.partition(), loss.requestedOffset(), loss.firstAvailableRow()))
                .readAll();
        ctx.verifier.onRangeRead(range, read.size());
        rows.addAll(read);
      }
      if (w.query() == QueryKind.AGGREGATE) {
        if (failArg >= 0) {
          throw new IllegalStateException("simulated task failure");
        }
        TreeMap<Long, Long> counts = new TreeMap<>();
        for (QueueRow row : rows) {
          counts.merge((Long) row.data().get("k"), 1L, Long::sum);
        }
        if (batch.mapOutputs.get(t) == null) {
          batch.mapOutputs.set(t, counts);
        }
        batch.done[t] = true;
        return;
      }
      List<Row> out = transform(rows);
      writeTaskOutput(out, failArg, 0, t, s.attempt());
      batch.done[t] = true;
    } catch (QueryFailure | SimulatedCrash | DataLossException e) {
      throw e;
    } catch (RuntimeException e) {
      taskFailed(Kind.TASK, t, 0, e);
    }
  }

  private void reduceTask(Step s) {
    int r = s.task();
    int slot = batch.done.length / 2 + r;
    if (batch.done[slot] && !s.speculative()) {
      return;
    }
    int failArg = ctx.faults.tick(SimFault.TASK_FAILURE);
    if (ctx.faults.fires(SimFault.SPECULATION)) {
      steps.addFirst(new Step(Kind.REDUCE_TASK, r, batch.attempts[slot]++, true));
    }
    try {
      TreeMap<Long, Long> sums = new TreeMap<>();
      for (TreeMap<Long, Long> part : batch.mapOutputs) {
        if (part == null) {
          throw new QueryFailure("reduce stage ran before the map stage finished", false, null);
        }
        part.forEach(
            (k, n) -> {
              if (Math.floorMod(k, w.reduceTasks()) == r) {
                sums.merge(k, n, Long::sum);
              }
            });
      }
      List<Row> out = new ArrayList<>();
      sums.forEach((k, n) -> out.add(Row.of("k", k, "n", n)));
      writeTaskOutput(out, failArg, 1, r, s.attempt());
      batch.done[slot] = true;
    } catch (QueryFailure | SimulatedCrash e) {
      throw e;
    } catch (RuntimeException e) {
      taskFailed(Kind.REDUCE_TASK, r, 1, e);
    }
  }

  private void taskFailed(Kind kind, int task, int stage, RuntimeException e) {
    int slot = stage == 0 ? task : batch.done.length / 2 + task;
    ctx.trace("d" + id + " " + kind + "(" + task + ") failed: " + e.getMessage());
    if (batch.done[slot]) {
      return; // a speculative copy failed after another attempt succeeded
    }
    if (++batch.failures[slot] >= MAX_TASK_FAILURES) {
      throw new QueryFailure("task " + task + " failed " + MAX_TASK_FAILURES + " times", false, e);
    }
    steps.addFirst(new Step(kind, task, batch.attempts[slot]++, false));
  }

  /**
   * The sink's DataWriter. At-least-once and idempotent: {@link WriteChunk} per chunk, each its own
   * transaction. Transactional: only the attempt the commit coordinator authorizes inserts into the
   * batch transaction (Spark's DataWritingSparkTask), through {@link InsertIntoBatchTransaction},
   * which aborts the transaction when an insert fails. Producer: {@link PushBatchShare}.
   */
  private void writeTaskOutput(List<Row> out, int failArg, int stage, int task, int attempt) {
    if (w.mode() == SimMode.TRANSACTIONAL) {
      if (failArg >= 0) {
        throw new IllegalStateException("simulated task failure before commit");
      }
      if (!batch.authorize(stage, task, attempt)) {
        ctx.trace("d" + id + " commit denied to attempt " + attempt + " of task " + task);
        return;
      }
      TransactionId tx = new TransactionId(batch.tx.id().value());
      try {
        inserts.insert(tx, Workload.OUTPUT, chunked(out));
      } catch (RuntimeException e) {
        batch.authorizedAttemptFailed(stage, task);
        throw e;
      }
      int slot = stage == 0 ? task : batch.done.length / 2 + task;
      batch.reports[slot] = new WriterReport(batch.id, tx.value(), new long[] {out.size()}, null);
      return;
    }
    if (w.mode() == SimMode.PRODUCER) {
      pushShare(out, failArg, task);
      return;
    }
    writeChunks(out, failArg, task);
  }

  /**
   * At-least-once and idempotent mode's DataWriter, as {@code ChunkedDataWriter} makes the calls: a
   * row at a time into {@link ChunkedTaskWriter}, which writes each full chunk in a transaction of
   * its own, and the rest at the commit. A failing attempt ({@code failArg}) dies before its first
   * chunk goes out (arg even) or before its second (arg odd), and Spark aborts its writer; one that
   * gets past that point dies after its commit.
   */
  private void writeChunks(List<Row> out, int failArg, int task) {
    int failAfter = failArg < 0 ? -1 : failArg % 2;
    boolean sorted = w.mode() == SimMode.IDEMPOTENT;
    ChunkedTaskWriter writer =
        new ChunkedTaskWriter(
            chunks, Workload.OUTPUT, sorted, task, w.outputTablets(), w.writeChunk());
    try {
      for (int k = 0; k < out.size(); k++) {
        boolean flushes = (k + 1) % w.writeChunk() == 0;
        if (flushes && writer.chunksWritten() == failAfter) {
          throw new IllegalStateException("simulated task failure after " + failAfter + " chunks");
        }
        Row row = out.get(k);
        writer.write(tablet -> sorted ? row : row.with("$tablet_index", (long) tablet));
      }
      if (out.size() % w.writeChunk() != 0 && writer.chunksWritten() == failAfter) {
        throw new IllegalStateException("simulated task failure after " + failAfter + " chunks");
      }
      writer.commit();
      ctx.verifier.onWriterReport(task, out.size(), writer.rowsPerTablet());
    } catch (RuntimeException e) {
      writer.abort();
      throw e;
    }
    if (failAfter >= 0) {
      throw new IllegalStateException("simulated task failure after all its chunks");
    }
  }

  /** A task's rows in chunks of {@code spark.yt.write.dynBatchSize} (the workload's). */
  private List<List<Row>> chunked(List<Row> out) {
    List<List<Row>> parts = new ArrayList<>();
    for (int from = 0; from < out.size(); from += w.writeChunk()) {
      parts.add(out.subList(from, Math.min(out.size(), from + w.writeChunk())));
    }
    return parts;
  }

  /**
   * Producer mode's DataWriter, as {@code YtProducerDataWriter} makes the calls: a row at a time
   * into {@link ProducerTaskWriter}, which opens the task partition's session at the first full
   * chunk (fencing every earlier attempt), pushes each full chunk into the share's transaction and
   * finishes the share at the commit. Every attempt may write and the server skips a replay
   * (Spark's commit coordinator only matters to sinks that commit on the driver).
   *
   * <p>A failing attempt ({@code failArg}, mod 4) dies before its first push (0), after its first
   * chunk with Spark's abort of the writer (1), after its first chunk without one, as a lost
   * executor leaves its transaction open (2), or after the share committed (3).
   */
  private void pushShare(List<Row> out, int failArg, int task) {
    int failAt = failArg < 0 ? -1 : failArg % 4;
    if (failAt == 0) {
      throw new IllegalStateException("simulated task failure before its first push");
    }
    int mark = ctx.io.startedCount();
    ProducerTaskWriter writer =
        new ProducerTaskWriter(
            () -> shares,
            new ProducerTaskWriter.Share(
                Workload.PRODUCER,
                Workload.OUTPUT,
                QUERY_ID,
                task,
                batch.id,
                w.outputTablets(),
                w.writeChunk(),
                maxRowsPerTablet,
                batch.sourceEnd,
                SHARE_TRANSACTION_TIMEOUT));
    try {
      for (Row row : out) {
        writer.write(tablet -> row.with("$tablet_index", (long) tablet));
        if ((failAt == 1 || failAt == 2) && writer.chunksPushed() > 0) {
          throw new IllegalStateException("simulated task failure after its first chunk");
        }
      }
      if (failAt == 1 || failAt == 2) {
        throw new IllegalStateException("simulated task failure before its commit");
      }
      Optional<BatchShareOutcome> outcome = writer.commit();
      ctx.verifier.onWriterReport(task, out.size(), writer.rowsPerTablet());
      trace(
          task,
          outcome
              .map(
                  o ->
                      o.decision().action()
                          + ", "
                          + o.writtenRowCount()
                          + " written, "
                          + o.skippedRowCount()
                          + " skipped")
              .orElse("no rows, nothing opened"));
    } catch (RuntimeException e) {
      if (failAt != 2) {
        writer.abort(); // Spark calls the writer's abort when the task fails
        if (!zombie && !(e instanceof SimulatedCrash)) {
          ctx.verifier.onFailedWrite(
              "attempt of task " + task + " of batch " + batch.id, ctx.io.startedSince(mark));
        }
      }
      throw e;
    }
    if (failAt == 3) {
      throw new IllegalStateException("simulated task failure after its share committed");
    }
  }

  private void trace(int task, String what) {
    if (ctx.tracing()) {
      ctx.trace("d" + id + " task " + task + " share of batch " + batch.id + ": " + what);
    }
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

  private List<Row> transform(List<QueueRow> rows) {
    List<Row> out = new ArrayList<>(rows.size());
    boolean keyed = w.mode() == SimMode.IDEMPOTENT;
    for (QueueRow row : rows) {
      long v = (Long) row.data().get("v");
      int copies = w.query().fanOut(v);
      int queue = ((Long) row.data().get("q")).intValue();
      long ordinal =
          keyed ? -1 : w.ordinal(new PartitionId(w.queues().get(queue), row.tabletIndex()));
      for (int c = 0; c < copies; c++) {
        long value = w.query().outputValue(v, c);
        if (keyed) {
          out.add(
              Row.of(
                  Verifier.SRC_QUEUE,
                  queueKeys[queue],
                  Verifier.SRC_TABLET,
                  (long) row.tabletIndex(),
                  Verifier.SRC_ROW,
                  row.rowIndex(),
                  "v",
                  value));
        } else {
          out.add(Row.of("p", ordinal, "r", row.rowIndex(), "i", (long) c, "v", value));
        }
      }
    }
    return out;
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

  // ---- Spark's logs (HDFSMetadataLog over the yt:// file system) ----------------------------

  private YPath writeTmp(YPath dir, long n, String content) {
    YPath tmp = dir.child("." + n + "." + id + "-" + tmpSeq++ + ".tmp");
    ctx.io.writeFile(tmp, content.getBytes(StandardCharsets.UTF_8), false);
    return tmp;
  }

  private void publish(YPath dir, long n, YPath tmp) {
    YPath target = dir.child(Long.toString(n));
    if (ctx.io.status(target).isPresent()) {
      throw new QueryFailure("concurrent update to the log: " + target + " exists", false, null);
    }
    ctx.io.rename(tmp, target);
  }

  private OptionalLong latest(YPath dir) {
    long max = -1;
    for (String name : ctx.io.list(dir)) {
      if (!name.isEmpty() && Character.isDigit(name.charAt(0))) {
        max = Math.max(max, Long.parseLong(name));
      }
    }
    return max < 0 ? OptionalLong.empty() : OptionalLong.of(max);
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
