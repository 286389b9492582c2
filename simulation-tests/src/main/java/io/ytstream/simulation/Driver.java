package io.ytstream.simulation;

import io.ytstream.application.AdvanceConsumer;
import io.ytstream.application.BatchNotCommittedException;
import io.ytstream.application.BatchShareOutcome;
import io.ytstream.application.CommitTransactionalBatch;
import io.ytstream.application.ConsumerFencedException;
import io.ytstream.application.PlanMicroBatch;
import io.ytstream.application.PushBatchShare;
import io.ytstream.application.ReadRanges;
import io.ytstream.core.delivery.CheckpointRecovery;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.OffsetsJson;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.DataLoss;
import io.ytstream.core.plan.DataLossException;
import io.ytstream.core.plan.OutputTabletCap;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.TaskAssignment;
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
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * One incarnation of the Spark driver with the ytstream source and sink, as a queue of Spark's
 * steps run one at a time. It holds Spark's order and nothing else: every protocol decision is made
 * by the application's use cases, the same classes the Spark adapter runs ({@link PlanMicroBatch},
 * {@link ReadRanges}, {@link AdvanceConsumer}, {@link CommitTransactionalBatch}, {@link
 * PushBatchShare}), over the ports with the schedule's faults.
 *
 * <p>The order is Spark 4.2's {@code MicroBatchExecution} (sql/core/.../streaming/runtime/
 * MicroBatchExecution.scala): recover from the logs ({@code populateStartOffsets}); plan ({@code
 * constructNextBatch} calls {@code latestOffset(start)}, where the source brings the consumer level
 * with {@code start}); write {@code offsets/N} ({@code markMicroBatchStart}); commit N-1 to the
 * source ({@code cleanUpLastExecutedMicroBatch}); run the tasks; commit the sink on the driver;
 * write {@code commits/N} ({@code markMicroBatchEnd}). A batch re-run after a restart skips the
 * planning, the offset log and the source commit, as Spark's {@code isCurrentBatchConstructed}
 * does. Everything the driver holds is in this object: a crash discards it, and a new driver
 * recovers from the cluster and the checkpoint alone.
 */
final class Driver {

  /** Spark's steps; a crash may be scheduled before and after each. */
  enum Kind {
    INIT,
    PLAN,
    WRITE_OFFSETS_TMP,
    RENAME_OFFSETS,
    COMMIT_SOURCES,
    START_TXN,
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

  /** Producer mode: the cluster's rows per tablet in one transaction (YTsaurus's default). */
  private static final long MAX_ROWS_PER_TABLET = 100_000;

  private final SimContext ctx;
  private final Workload w;
  final int id;
  private final ArrayDeque<Step> steps = new ArrayDeque<>();
  private final YPath offsetsDir = Workload.CHECKPOINT.child("offsets");
  private final YPath commitsDir = Workload.CHECKPOINT.child("commits");
  private final YPath sourcesDir = Workload.CHECKPOINT.child("sources").child("0");
  private final YPath initialOffsetsFile = sourcesDir.child("0");

  /** The text form of each queue, by queue index (what the idempotent sink keys rows by). */
  private final String[] queueKeys;

  private final PlanMicroBatch planner;
  private final AdvanceConsumer advancer;
  private final CommitTransactionalBatch committer;
  private final PushBatchShare shares;
  private final Map<QueueId, ConsumerId> consumers = new TreeMap<>();

  private boolean initialized;
  private long nextBatchId;
  private StreamOffsets nextStart;
  private Batch batch;
  private int tmpSeq;
  private boolean zombie;
  private int zombieBatchesLeft;
  private boolean finished;
  private Kind lastKind;

  /** The driver-side state of the batch in flight. */
  private final class Batch {
    final long id;
    final StreamOffsets end;
    final List<OffsetRange> ranges;
    final List<TaskAssignment> tasks;
    YPath tmp;
    boolean commitsWritten;
    TabletTransaction tx;
    boolean[] done;
    int[] failures;
    int[] attempts;
    int[][] authorized;
    List<TreeMap<Long, Long>> mapOutputs;

    Batch(long id, StreamOffsets start, StreamOffsets end) {
      this.id = id;
      this.end = end;
      this.ranges = PlanMicroBatch.ranges(start, end);
      this.tasks = PlanMicroBatch.tasks(ranges);
      int n = Math.max(tasks.size(), w.reduceTasks());
      done = new boolean[2 * n];
      failures = new int[2 * n];
      attempts = new int[2 * n];
      authorized = new int[2][n];
      Arrays.fill(authorized[0], -1);
      Arrays.fill(authorized[1], -1);
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
  }

  Driver(SimContext ctx, int id) {
    this.ctx = ctx;
    this.w = ctx.workload;
    this.id = id;
    this.queueKeys = new String[w.queues().size()];
    for (int q = 0; q < queueKeys.length; q++) {
      queueKeys[q] = w.queues().get(q).key();
      consumers.put(w.queues().get(q), Workload.CONSUMER);
    }
    PlanLimits limits = PlanLimits.of(w.maxRowsPerPartition(), w.dataLossPolicy());
    if (ctx.rowLimit > 0) {
      limits =
          limits.withOutputTabletCap(
              new OutputTabletCap(ctx.rowLimit, 1, w.query().maxRowsPerInputRow()));
    }
    this.planner =
        new PlanMicroBatch(
            ctx.io, ctx.io, Workload.CONSUMER, w.queues(), limits, ctx.mutant.protocol());
    this.advancer =
        new AdvanceConsumer(ctx.io, Workload.CONSUMER, w.queues(), ctx.mutant.protocol());
    this.committer = new CommitTransactionalBatch(ctx.io, ctx.mutant.protocol());
    this.shares = new PushBatchShare(ctx.io, ctx.mutant.protocol());
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
          batch.tmp = writeTmp(offsetsDir, batch.id, "v1\n" + OffsetsJson.write(batch.end));
      case RENAME_OFFSETS -> publish(offsetsDir, batch.id, batch.tmp);
      case COMMIT_SOURCES -> advancer.bringLevel(readOffsets(batch.id - 1));
      case START_TXN -> batch.tx = ctx.io.start(TRANSACTION_TIMEOUT);
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
    ctx.io.createDirectories(sourcesDir);
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
        nextStart = readOffsets(d.batch() - 1);
        StreamOffsets before = d.batch() >= 2 ? readOffsets(d.batch() - 2) : readInitial();
        ctx.verifier.onRecovery(d, before, nextStart);
      }
      case RERUN -> {
        long n = d.batch();
        StreamOffsets end = readOffsets(n);
        StreamOffsets start = n > 0 ? readOffsets(n - 1) : readInitial();
        ctx.verifier.onRecovery(d, start, end);
        batch = new Batch(n, start, end);
        enqueueRun();
      }
    }
    initialized = true;
  }

  // ---- planning (constructNextBatch) --------------------------------------------------------

  private void plan() {
    if (nextStart == null) {
      nextStart = initialOffsets(); // getStartOffset: initialOffset() when there is no start
    }
    // latestOffset(start): start is the end of the last batch with commits/N, so it is durable.
    StreamOffsets consumer = advancer.bringLevel(nextStart);
    PlanMicroBatch.PlannedEnd planned = planner.plan(nextStart, planner.readBounds(), consumer);
    for (DataLoss loss : planned.losses()) {
      reportLoss(loss.partition(), loss.requestedOffset(), loss.firstAvailableRow());
    }
    if (planned.end().equals(nextStart)) {
      return; // isNewDataAvailable is false: no batch, nothing written to the logs
    }
    batch = new Batch(nextBatchId, nextStart, planned.end());
    steps.add(Step.of(Kind.WRITE_OFFSETS_TMP));
    steps.add(Step.of(Kind.RENAME_OFFSETS));
    if (batch.id > 0) {
      steps.add(Step.of(Kind.COMMIT_SOURCES));
    }
    enqueueRun();
  }

  /** The source's initialOffset(), stored once under {@code sources/0/0}. */
  private StreamOffsets initialOffsets() {
    if (ctx.io.status(initialOffsetsFile).isPresent()) {
      return readInitial();
    }
    StreamOffsets initial = planner.initialOffsets(planner.readBounds(), planner.readConsumer());
    YPath tmp = sourcesDir.child(".0." + id + "-" + tmpSeq++ + ".tmp");
    ctx.io.writeFile(
        tmp, ("v1\n" + OffsetsJson.write(initial)).getBytes(StandardCharsets.UTF_8), false);
    try {
      ctx.io.rename(tmp, initialOffsetsFile);
    } catch (YtException e) {
      if (e.hasCode(YtErrorCode.ALREADY_EXISTS)) {
        return readInitial();
      }
      throw e;
    }
    return initial;
  }

  // ---- running the batch (runBatch) ---------------------------------------------------------

  private void enqueueRun() {
    boolean logFirst = ctx.mutant == Mutant.COMMIT_LOG_BEFORE_SINK;
    if (w.mode() == SimMode.TRANSACTIONAL) {
      steps.add(Step.of(Kind.START_TXN));
    }
    if (logFirst && !batch.commitsWritten) {
      steps.add(Step.of(Kind.WRITE_COMMITS_TMP));
      steps.add(Step.of(Kind.RENAME_COMMITS));
    }
    for (int t = 0; t < batch.tasks.size(); t++) {
      steps.add(new Step(Kind.TASK, t, batch.attempts[t]++, false));
    }
    if (w.query() == QueryKind.AGGREGATE && !batch.tasks.isEmpty()) {
      int base = batch.done.length / 2;
      for (int r = 0; r < w.reduceTasks(); r++) {
        steps.add(new Step(Kind.REDUCE_TASK, r, batch.attempts[base + r]++, false));
      }
    }
    steps.add(Step.of(Kind.SINK_COMMIT));
    if (!logFirst || batch.commitsWritten) {
      steps.add(Step.of(Kind.WRITE_COMMITS_TMP));
      steps.add(Step.of(Kind.RENAME_COMMITS));
    }
    steps.add(Step.of(Kind.BATCH_END));
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
                            loss.partition(), loss.requestedOffset(), loss.firstAvailableRow()),
                    ctx.mutant.protocol())
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
   * The sink's DataWriter. At-least-once: flushed in chunks, each its own transaction. Idempotent:
   * upserts keyed by source position. Transactional: only the attempt the commit coordinator
   * authorizes writes into the batch transaction (Spark's DataWritingSparkTask).
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
      try {
        TabletTransaction tx = ctx.io.attach(new TransactionId(batch.tx.id().value()));
        if (!out.isEmpty()) {
          tx.insertRows(Workload.OUTPUT, out);
        }
      } catch (RuntimeException e) {
        // The authorized committer failed: Spark aborts the stage, and the query fails.
        throw new QueryFailure("authorized task attempt failed: " + e.getMessage(), false, e);
      }
      return;
    }
    // A failing attempt dies before its first chunk or push (arg even) or after it (arg odd).
    int failAfter = failArg < 0 ? -1 : failArg % 2;
    if (w.mode() == SimMode.PRODUCER) {
      pushShare(out, failAfter, task);
      return;
    }
    int chunk = w.writeChunk();
    int written = 0;
    for (int from = 0; from < out.size(); from += chunk) {
      if (written == failAfter) {
        throw new IllegalStateException("simulated task failure after " + written + " chunks");
      }
      List<Row> part = out.subList(from, Math.min(out.size(), from + chunk));
      if (w.mode() == SimMode.IDEMPOTENT) {
        ctx.io.upsert(Workload.OUTPUT, part);
      } else {
        ctx.io.append(Workload.OUTPUT, part);
      }
      written++;
    }
    if (failAfter >= 0) {
      throw new IllegalStateException("simulated task failure after all its chunks");
    }
  }

  /**
   * Producer mode's DataWriter: the attempt opens its task partition's session (which fences every
   * earlier attempt) and pushes its share of the batch through {@link PushBatchShare}, which
   * numbers it from the batch id, so every attempt may write and the server skips a replay (Spark's
   * commit coordinator only matters to sinks that commit on the driver). Each source partition's
   * rows go to one tablet of the output queue, which keeps them in order.
   */
  private void pushShare(List<Row> out, int failAfter, int task) {
    PushBatchShare.OpenSession session =
        shares.open(Workload.PRODUCER, Workload.OUTPUT, QUERY_ID, task);
    if (failAfter == 0) {
      throw new IllegalStateException("simulated task failure before its push");
    }
    List<Row> rows = new ArrayList<>(out.size());
    for (Row row : out) {
      rows.add(row.with("$tablet_index", (Long) row.get("p") % w.outputTablets()));
    }
    BatchShareOutcome outcome =
        shares.push(session, batch.id, rows, MAX_ROWS_PER_TABLET, Optional.of(batch.end));
    if (ctx.tracing()) {
      ctx.trace(
          "d"
              + id
              + " task "
              + task
              + " share of batch "
              + batch.id
              + ": "
              + outcome.decision().action()
              + ", "
              + outcome.writtenRowCount()
              + " written, "
              + outcome.skippedRowCount()
              + " skipped");
    }
    if (failAfter > 0) {
      throw new IllegalStateException("simulated task failure after its push");
    }
  }

  private QueryFailure dataLoss(List<DataLoss> losses) {
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
   * StreamingWrite.commit on the driver: in transactional mode the application's use case decides
   * and commits (a batch that does not commit fails the query, as in Spark, and runs again after
   * the restart); in the other modes the writers have flushed their own chunks.
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
    try {
      CommitTransactionalBatch.Result result =
          committer.commit(batch.id, batch.tx, batch.ranges, consumers);
      if (ctx.tracing()) {
        ctx.trace("d" + id + " batch " + batch.id + " " + result);
      }
    } catch (BatchNotCommittedException | ConsumerFencedException e) {
      throw new QueryFailure(e.getMessage(), false, e);
    }
  }

  private void batchEnd() {
    ctx.batchesCommitted++;
    nextBatchId = batch.id + 1;
    nextStart = batch.end;
    if (ctx.tracing()) {
      ctx.trace("d" + id + " batch " + batch.id + " done, end " + OffsetsJson.write(batch.end));
    }
    batch = null;
    if (zombie && --zombieBatchesLeft <= 0) {
      finished = true;
    }
  }

  // ---- checkpoint logs (HDFSMetadataLog over the CheckpointStore) ---------------------------

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

  private StreamOffsets readOffsets(long n) {
    return parseLog(ctx.io.readFile(offsetsDir.child(Long.toString(n))));
  }

  private StreamOffsets readInitial() {
    return parseLog(ctx.io.readFile(initialOffsetsFile));
  }

  private static StreamOffsets parseLog(byte[] content) {
    String text = new String(content, StandardCharsets.UTF_8);
    if (!text.startsWith("v1\n")) {
      throw new IllegalStateException("unknown log version: " + text);
    }
    return OffsetsJson.parse(text.substring(3));
  }
}
