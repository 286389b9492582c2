package io.ytstream.simulation;

import io.ytstream.application.PlanMicroBatch;
import io.ytstream.application.ReadRealTimePartition;
import io.ytstream.application.RealTimeBatchBoundary;
import io.ytstream.application.RealTimeTask;
import io.ytstream.application.SourcePorts;
import io.ytstream.application.StreamingSource;
import io.ytstream.application.checkpoint.OffsetLogEntry;
import io.ytstream.application.checkpoint.QueryCheckpoint;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.DataLoss;
import io.ytstream.core.plan.DataLossException;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.TriggerLimit;
import io.ytstream.core.plan.UntrustedPositionsException;
import io.ytstream.ports.QueueRow;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * One query run of Real-time Mode in Spark's order, one call at a time, each the call the Spark
 * adapter makes at the same point ({@code YtMicroBatchStream}, {@code YtRealTimeReader}, the {@code
 * ForeachWriter}s). Read in Spark 4.2's {@code
 * sql/core/src/main/scala/org/apache/spark/sql/execution/streaming/runtime/MicroBatchExecution.scala}
 * (apache/spark):
 *
 * <ol>
 *   <li>{@link Kind#PREPARE}: {@code logicalPlan} calls {@code prepareForRealTimeMode()} on every
 *       source when the trigger is a {@code RealTimeTrigger} ("Inform the source if it is in real
 *       time mode"), before the first batch; the source's bounds thread starts.
 *   <li>{@link Kind#INIT}: {@code initializeExecution} deletes the offset log entries past the last
 *       {@code commits/N} ({@code offsetLog.purgeAfter(lastCommittedBatchId)}: in Real-time Mode an
 *       {@code offsets/N} is written only at the end of a batch, so one without its commit is a
 *       batch that did not finish), then {@code populateStartOffsets}: the next batch starts at the
 *       end of the last committed one.
 *   <li>{@link Kind#LATEST_OFFSET}: {@code constructNextBatch} calls {@code latestOffset(start,
 *       limit)} and {@code reportLatestOffset()}; a batch is constructed whatever the end ({@code
 *       isNewDataAvailable} is true for a {@code RealTimeTrigger}). {@code markMicroBatchStart}
 *       writes nothing in Real-time Mode ("Delay offset logging ... in real time mode").
 *   <li>{@link Kind#COMMIT_SOURCES}: {@code cleanUpLastExecutedMicroBatch} reads {@code
 *       offsets/N-1} back and calls {@code commit(end)} ({@code commitSources}), N > 0.
 *   <li>{@link Kind#PLAN_TASKS}: {@code runBatch} gives the scan {@code OffsetHolder(start, None)},
 *       so the source plans open-ended tasks with {@code planInputPartitions(start)}.
 *   <li>{@link Kind#TASK}: the tasks run side by side until the batch's deadline, each a {@code
 *       ForeachWriter} opened with its partition id and the batch id, fed a row at a time by the
 *       real-time reader, and closed at the deadline (which writes what it buffered).
 *   <li>{@link Kind#MERGE}: {@code markMicroBatchEnd} collects each task's offset (sorted by task
 *       index) and calls {@code mergeOffsets}; then {@link Kind#WRITE_OFFSETS} ({@code
 *       offsetLog.add(batchId, endOffsets)}, "In real-time mode, we delay the offset logging until
 *       the end of the batch") and {@link Kind#WRITE_COMMITS} ({@code commitLog.add}), each failing
 *       the query when the entry exists ({@code concurrentStreamLogUpdate}).
 * </ol>
 *
 * The consumer moves on the source's own thread ({@link SimBackgroundAdvance}) to the ends Spark
 * commits ({@code commit(end)}); the bounds are read ahead on another ({@link
 * SimPrefetchedBounds}); a task's unread rows go to the next batch's task of the same partition
 * (the shipped {@code RowsCarriedToNextTask}). A task that fails fails the batch, and so the query,
 * which restarts from the last committed boundary.
 */
final class RealTimeDriver {

  /** One step of Spark's real-time order. */
  enum Kind {
    PREPARE,
    INIT,
    LATEST_OFFSET,
    COMMIT_SOURCES,
    PLAN_TASKS,
    TASK,
    MERGE,
    WRITE_OFFSETS,
    WRITE_COMMITS,
    BATCH_END
  }

  private static final YPath OFFSETS = Workload.CHECKPOINT.child("offsets");

  final int id;
  private final RealTimeContext ctx;
  private final RealTimeWorkload w;
  private final String readId;
  private final QueryCheckpoint checkpoint;
  private final StreamingSource source;
  private final SimBackgroundAdvance background;
  private final SimPrefetchedBounds prefetched;
  private final SplittableRandom random;
  private final ArrayDeque<Kind> steps = new ArrayDeque<>();

  private boolean prepared;
  private boolean zombie;
  private boolean finished;
  private long nextBatchId;
  private StreamOffsets nextStart;
  private Batch batch;
  private Kind lastKind;

  /** The stateful query's state after this run's last batch (restored at {@link Kind#INIT}). */
  private SortedMap<Long, Long> state = new TreeMap<>();

  /** The tasks {@code prepareForRealTimeMode} named for the slot check; null once checked. */
  private List<? extends java.util.Set<PartitionId>> slotTasks;

  /** How many partitions the queue had when the slot check was told (the cluster's truth). */
  private int slotPartitions;

  private int partitionsNow() {
    return ctx.cluster.ports().queueMetadata().partitions(w.queue()).size();
  }

  /** The batch in flight: its id, start, tasks and (after the merge) end. */
  private static final class Batch {
    final long id;
    final StreamOffsets start;
    final List<Task> tasks = new ArrayList<>();
    StreamOffsets end;

    /** The stateful query's operator and writers (the stateful mode only). */
    StatefulCount stateful;

    Batch(long id, StreamOffsets start) {
      this.id = id;
      this.start = start;
    }
  }

  RealTimeDriver(RealTimeContext ctx, int id) {
    this.ctx = ctx;
    this.w = ctx.workload;
    this.id = id;
    this.readId = "run-" + id;
    this.random = new SplittableRandom(w.seed() * 7919 + id);
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
            List.of(w.queue()),
            PlanLimits.of(1_000, w.dataLossPolicy()),
            Optional.empty(),
            checkpoint,
            0);
    this.background = new SimBackgroundAdvance(source::bringConsumerLevel);
    this.prefetched = new SimPrefetchedBounds(source::readBounds);
  }

  /** The source's threads: the consumer advance and the bounds read ahead, on the clock. */
  void tickThreads() {
    if (finished) {
      return;
    }
    long now = ctx.now();
    if (prepared) {
      prefetched.tick(now);
    }
    background.tick(now);
  }

  /** The query stops (it failed): the source's {@code stop()} moves the consumer at once. */
  void stop() {
    finished = true;
    background.finish();
  }

  /** The driver died: its threads are gone with it. */
  void die() {
    finished = true;
  }

  /** A new driver took over; this one goes on to the end of its batch, then stops. */
  void becomeZombie() {
    zombie = true;
    ctx.trace("d" + id + " is now a zombie");
  }

  boolean finished() {
    return finished;
  }

  boolean inBatch() {
    return batch != null;
  }

  /** The positions this run plans its next batch from, once it has them. */
  Optional<StreamOffsets> positions() {
    return Optional.ofNullable(nextStart);
  }

  boolean idle() {
    return prepared && batch == null && background.idle();
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
        ctx.trace("d" + id + " (zombie) stops");
        stop();
        return;
      }
      steps.add(!prepared ? Kind.PREPARE : Kind.LATEST_OFFSET);
    }
    Kind k = steps.pollFirst();
    lastKind = k;
    if (ctx.tracing()) {
      ctx.trace("d" + id + (zombie ? "z" : "") + " " + k + (batch != null ? " b" + batch.id : ""));
    }
    if (ctx.faults.fires(SimFault.CRASH_BEFORE_STEP)) {
      throw new SimulatedCrash("before " + k);
    }
    try {
      execute(k);
    } catch (SimulatedCrash e) {
      throw e;
    } catch (QueryFailure e) {
      throw stopsFor(e.getCause(), e);
    } catch (RuntimeException e) {
      throw stopsFor(e, new QueryFailure(k + " failed: " + e, false, e));
    }
    if (ctx.faults.fires(SimFault.CRASH_AFTER_STEP)) {
      throw new SimulatedCrash("after " + k);
    }
  }

  /**
   * A failure for data loss ({@code fail_on_data_loss=true}) or for a queue that no longer fits the
   * checkpoint stops the query for good, with its reason, as Spark's query stops: every restart
   * would meet it again.
   */
  private QueryFailure stopsFor(Throwable cause, QueryFailure failure) {
    if (cause instanceof DataLossException loss) {
      ctx.checker.onDataLossFailure(loss.losses());
      if (!zombie) {
        ctx.stoppedOnDataLoss = true;
      }
      return new QueryFailure(failure.getMessage(), true, cause);
    }
    if (cause instanceof UntrustedPositionsException) {
      if (!zombie) {
        ctx.stoppedOnUntrustedPositions = true;
      }
      return new QueryFailure(failure.getMessage(), true, cause);
    }
    return failure;
  }

  private void execute(Kind k) {
    switch (k) {
      case PREPARE -> prepare();
      case INIT -> init();
      case LATEST_OFFSET -> latestOffset();
      case COMMIT_SOURCES -> source.commit(checkpoint.batchEnd(batch.id - 1).get(0));
      case PLAN_TASKS -> planTasks();
      case TASK -> task();
      case MERGE -> merge();
      case WRITE_OFFSETS ->
          writeLog("offsets/" + batch.id, OffsetLogEntry.of(batch.end), "offsets");
      case WRITE_COMMITS -> {
        // Checkpoint format v2 (Spark 4's CommitLog): the commit names the state this run wrote.
        writeLog(
            "commits/" + batch.id,
            batch.stateful == null
                ? "v1\n{\"nextBatchWatermarkMs\":0}"
                : "v2\n{\"nextBatchWatermarkMs\":0,\"stateUniqueIds\":{\"0\":[[\""
                    + readId
                    + "\"]]}}",
            "commits");
        ctx.batchesCommitted++;
        ctx.checker.onCommitted();
      }
      case BATCH_END -> {
        nextStart = batch.end;
        nextBatchId = batch.id + 1;
        if (batch.stateful != null) {
          state = batch.stateful.counts();
        }
        batch = null;
      }
    }
  }

  private void prepare() {
    // The slot check (RealTimeSlots, which the adapter makes where each batch's tasks are planned)
    // is Spark's machinery, not simulated.
    slotPartitions = partitionsNow();
    slotTasks =
        source.prepareForRealTimeMode(
            () -> prefetched.fresh(ctx.now()),
            end -> background.advanceTo(end, ctx.now()),
            w.partitionsPerTask());
    prepared = true;
    steps.add(Kind.INIT);
  }

  private void init() {
    long lastCommit = latest("commits");
    long lastOffsets = latest("offsets");
    for (long n = lastCommit + 1; n <= lastOffsets; n++) {
      // offsetLog.purgeAfter(lastCommittedBatchId): a batch that wrote offsets/N but not its
      // commit did not finish.
      ctx.io.delete(OFFSETS.child(Long.toString(n)), false);
    }
    if (lastCommit >= 0 && lastOffsets < lastCommit) {
      // A run that stalled wrote commits/N after a newer run purged its offsets/N: Spark cannot
      // resume this checkpoint either (populateStartOffsets re-runs batch N-1, whose offsets/N-1
      // exists, and markMicroBatchEnd fails on it); the query stops, naming it.
      if (!zombie) {
        ctx.stoppedOnDamagedCheckpoint = true;
      }
      throw new QueryFailure(
          "commits/"
              + lastCommit
              + " has no offsets/"
              + lastCommit
              + ": two runs of the query"
              + " wrote this checkpoint",
          true,
          null);
    }
    if (lastCommit >= 0) {
      nextBatchId = lastCommit + 1;
      nextStart = checkpoint.batchEnd(lastCommit).get(0);
      if (w.mode() == RealTimeMode.STATEFUL) {
        state = restoreState(lastCommit);
      }
    } else {
      nextBatchId = 0;
      nextStart = null;
    }
    ctx.trace("d" + id + " resumes at batch " + nextBatchId + " from " + nextStart);
  }

  /**
   * The state version {@code lastCommit + 1} that {@code commits/lastCommit} names: what the
   * stateful operator's tasks of the committed run wrote at the batch's end. A version another run
   * wrote (a run that died before its commit, or lost the race to it) is never read.
   */
  private SortedMap<Long, Long> restoreState(long lastCommit) {
    String commit =
        new String(
            new StoreCheckpointFiles(ctx.io, Workload.CHECKPOINT, "d" + id)
                .read("commits/" + lastCommit)
                .orElseThrow(),
            StandardCharsets.UTF_8);
    int from = commit.indexOf("[[\"") + 3;
    String run = commit.substring(from, commit.indexOf('"', from));
    SortedMap<Long, Long> restored = ctx.stateVersions.get((lastCommit + 1) + "/" + run);
    if (restored == null) {
      throw new IllegalStateException(
          "state version " + (lastCommit + 1) + " of " + run + " is gone");
    }
    ctx.trace(
        "d" + id + " restores state version " + (lastCommit + 1) + " of " + run + ": " + restored);
    return new TreeMap<>(restored);
  }

  private void latestOffset() {
    StreamOffsets start = nextStart != null ? nextStart : source.initialOffset().offsets();
    nextStart = start;
    PlanMicroBatch.PlannedEnd planned = source.latestOffset(start, TriggerLimit.none(), ctx.now());
    source.reportLatestOffset();
    for (DataLoss loss : planned.losses()) {
      // fail_on_data_loss=false: the plan skips rows trimmed before a partition was placed, or
      // below the start, and reports them (the source's lostRows).
      ctx.trace("d" + id + " plan skips trimmed rows: " + loss);
      ctx.reportedLost.add(loss);
    }
    // A batch always runs in Real-time Mode, whatever the end: isNewDataAvailable is true for a
    // RealTimeTrigger ("we always assume there is new data and run the batch"), so each boundary
    // commits the previous batch's end to the source.
    batch = new Batch(nextBatchId, start);
    if (batch.id > 0) {
      steps.add(Kind.COMMIT_SOURCES);
    }
    steps.add(Kind.PLAN_TASKS);
  }

  private void planTasks() {
    List<SortedMap<PartitionId, Long>> tasks = source.realTimeTasks(batch.start);
    if (slotTasks != null) {
      // The run's first batch, over the partitions the slot check saw (unless resharded since).
      List<java.util.Set<PartitionId>> ran = new ArrayList<>();
      for (SortedMap<PartitionId, Long> t : tasks) {
        ran.add(new java.util.TreeSet<>(t.keySet()));
      }
      if (partitionsNow() == slotPartitions) {
        ctx.checker.onFirstTasks(slotTasks, ran);
      }
      slotTasks = null;
    }
    if (w.mode() == RealTimeMode.STATEFUL) {
      batch.stateful =
          new StatefulCount(
              w, ctx.io, ctx.cluster.ports().tableMetadata().describe(Workload.OUTPUT), state);
    }
    for (int t = 0; t < tasks.size(); t++) {
      batch.tasks.add(new Task(t, tasks.get(t)));
      for (int s = 0; s < w.taskSteps() + 2; s++) {
        steps.add(Kind.TASK);
      }
    }
    steps.add(Kind.MERGE);
    steps.add(Kind.WRITE_OFFSETS);
    steps.add(Kind.WRITE_COMMITS);
    steps.add(Kind.BATCH_END);
  }

  /** One step of one of the batch's tasks, which run side by side. */
  private void task() {
    List<Task> running = new ArrayList<>();
    for (Task t : batch.tasks) {
      if (!t.done) {
        running.add(t);
      }
    }
    running.get(random.nextInt(running.size())).step();
  }

  private void merge() {
    List<RealTimeBatchBoundary.TaskEnd> ends = new ArrayList<>();
    for (Task t : batch.tasks) {
      ends.add(new RealTimeBatchBoundary.TaskEnd(t.end));
    }
    batch.end = source.mergeRealTimeEnds(ends);
    ctx.trace("d" + id + " b" + batch.id + " " + batch.start + " -> " + batch.end);
    if (batch.stateful != null) {
      // The stateful tasks end with the batch: their writers flush, their state version is written.
      batch.stateful.close();
      ctx.stateVersions.put((batch.id + 1) + "/" + readId, new TreeMap<>(batch.stateful.counts()));
    }
  }

  private void writeLog(String path, String content, String log) {
    boolean written =
        new StoreCheckpointFiles(ctx.io, Workload.CHECKPOINT, "d" + id + "-" + log)
            .createIfAbsent(path, content.getBytes(StandardCharsets.UTF_8));
    if (!written) {
      // concurrentStreamLogUpdate: another run of the query wrote this batch's entry.
      throw new QueryFailure(path + " exists: another run of the query wrote it", false, null);
    }
  }

  private long latest(String dir) {
    long latest = -1;
    for (String name : new StoreCheckpointFiles(ctx.io, Workload.CHECKPOINT, "d" + id).list(dir)) {
      if (!name.isEmpty() && name.chars().allMatch(Character::isDigit)) {
        latest = Math.max(latest, Long.parseLong(name));
      }
    }
    return latest;
  }

  /**
   * One real-time task, as {@code YtRealTimeReader} runs it: the shipped {@link RealTimeTask} over
   * one {@link ReadRealTimePartition} per partition, asked for a few rows per step up to a deadline
   * a millisecond of the task's own time away ({@link StepTime}), each row handed to the writer; at
   * the deadline the writer is closed, the task reports where each partition stopped, and its
   * unread rows are kept for the next batch's task.
   */
  private final class Task {
    final int index;
    final SortedMap<PartitionId, Long> starts;
    final TreeMap<PartitionId, Long> end = new TreeMap<>();
    final StepTime time = new StepTime();
    RealTimeTask read;
    RealTimeForeachWriter writer;

    /** The rows handed to the writer (ordinal, row index), for the flush timer's check. */
    final List<long[]> handed = new ArrayList<>();

    /** The last timer tick left rows out of the output: the writer's next call must fail. */
    boolean tickLeftRows;

    int stepsTaken;
    boolean done;

    Task(int index, SortedMap<PartitionId, Long> starts) {
      this.index = index;
      this.starts = starts;
    }

    void step() {
      if (stepsTaken == 0) {
        open();
      } else if (stepsTaken <= w.taskSteps()) {
        read();
      } else {
        close();
      }
      stepsTaken++;
    }

    private void open() {
      time.startStep();
      read =
          new RealTimeTask(
              readId,
              starts,
              ctx.carried,
              (partition, start, carried) ->
                  new ReadRealTimePartition(
                      (c, p, offset, maxRows) -> {
                        List<QueueRow> rows = ctx.io.pull(c, p, offset, maxRows);
                        ctx.checker.onPulled(readId, p, rows);
                        return rows;
                      },
                      Workload.CONSUMER,
                      partition,
                      start,
                      carried,
                      w.pullRows(),
                      w.dataLossPolicy(),
                      this::skipped),
              time);
      if (ctx.tracing()) {
        read.carriedAtStart()
            .forEach(
                (partition, rows) -> {
                  if (rows > 0) {
                    ctx.trace(
                        "d"
                            + id
                            + " task "
                            + index
                            + " starts "
                            + partition
                            + " with "
                            + rows
                            + " carried rows");
                  }
                });
      }
      // ForeachWriter.open(partitionId, epochId): the task's index and the batch id. A stateful
      // query's source tasks hand their rows to the shuffle instead.
      writer = batch.stateful == null ? RealTimeForeachWriter.open(w, ctx.io, index) : null;
    }

    private void read() {
      try {
        if (ctx.faults.fires(SimFault.TASK_FAILURE)) {
          throw new IllegalStateException("simulated task failure");
        }
        time.startStep();
        long deadline = time.nowMillis() + 1;
        int emit = 1 + random.nextInt(3);
        for (int n = 0; n < emit; n++) {
          Optional<RealTimeTask.Handed> next = read.next(deadline);
          if (next.isEmpty()) {
            break;
          }
          QueueRow row = next.get().row();
          if (writer == null) {
            batch.stateful.process(row);
            continue;
          }
          writer.process(row);
          afterWriterCall();
          handed.add(
              new long[] {
                w.ordinal(new PartitionId(w.queue(), row.tabletIndex())), row.rowIndex()
              });
        }
        if (w.flushEverySteps() > 0 && stepsTaken % w.flushEverySteps() == 0) {
          if (writer == null) {
            batch.stateful.timer();
          } else {
            writer.timer();
            tickLeftRows = !ctx.checker.inOutput(handed);
          }
        }
      } catch (InterruptedIOException e) {
        closeAfterError();
        read.close();
        throw new QueryFailure("task " + index + " was interrupted: " + e, false, null);
      } catch (RuntimeException e) {
        closeAfterError();
        read.close();
        throw new QueryFailure("task " + index + " failed: " + e, false, e);
      }
    }

    private void closeAfterError() {
      if (writer != null) {
        writer.closeAfterError();
      } else {
        batch.stateful.drop();
      }
    }

    /** A writer call that did not fail after a tick that left rows out of the output. */
    private void afterWriterCall() {
      if (tickLeftRows) {
        ctx.checker.onTimerFlushLost(
            "task " + index + ": the flush timer left rows unwritten and the next call went on");
        tickLeftRows = false;
      }
    }

    private void close() {
      time.startStep();
      try {
        if (writer != null) {
          writer.closeAfterRows();
        }
        afterWriterCall();
      } catch (RuntimeException e) {
        read.close();
        throw new QueryFailure("task " + index + " failed at close: " + e, false, e);
      }
      end.putAll(read.offsets());
      read.close();
      done = true;
    }

    /** {@code fail_on_data_loss=false}: the task skips trimmed rows and reports them. */
    private void skipped(DataLoss loss) {
      ctx.trace("d" + id + " task " + index + " skips trimmed rows: " + loss);
      ctx.reportedLost.add(loss);
    }
  }

  /**
   * A task's time: the simulated clock, plus what the task waited within its current step. A wait
   * takes the rest of the step (a millisecond): the task's next pull is the next step's.
   */
  private final class StepTime implements RealTimeTask.TimeSource {
    private static final long STEP_NANOS = 1_000_000L;
    private long waited;

    void startStep() {
      waited = 0;
    }

    @Override
    public long nowMillis() {
      return ctx.now() + waited / 1_000_000L;
    }

    @Override
    public long nowNanos() {
      return ctx.now() * 1_000_000L + waited;
    }

    @Override
    public void park(long nanos) {
      waited = Math.max(waited + nanos, STEP_NANOS);
    }
  }
}
