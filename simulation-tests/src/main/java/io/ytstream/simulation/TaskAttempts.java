package io.ytstream.simulation;

import io.ytstream.application.BatchShareOutcome;
import io.ytstream.application.ChunkedTaskWriter;
import io.ytstream.application.InsertIntoBatchTransaction;
import io.ytstream.application.ProducerTaskWriter;
import io.ytstream.application.PushBatchShare;
import io.ytstream.application.ReadRanges;
import io.ytstream.application.StaticTableTaskWriter;
import io.ytstream.application.TransactionalTaskWriter;
import io.ytstream.application.WriteChunk;
import io.ytstream.application.WriterReport;
import io.ytstream.core.delivery.TaskAttemptEnd;
import io.ytstream.core.delivery.TaskAttemptEnd.Outcome;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.plan.TaskAssignment;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.TransactionId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A task attempt on an executor, as Spark's {@code DataWritingSparkTask} runs it: read the task's
 * ranges through {@link ReadRanges}, run the query, and hand the rows to the sink's DataWriter
 * ({@link WriteChunk} through {@link ChunkedTaskWriter}, {@link InsertIntoBatchTransaction} through
 * {@link TransactionalTaskWriter}, or {@link PushBatchShare} through {@link ProducerTaskWriter}).
 * Which attempt runs when, retries and speculation are the driver's ({@link Driver}); an attempt's
 * failure is an exception.
 */
final class TaskAttempts {

  /** The timeout of a producer share's transaction (the simulation's clock never expires it). */
  private static final Duration SHARE_TRANSACTION_TIMEOUT = Duration.ofSeconds(30);

  /** Why a task kept no rows under {@link SimFault#EXECUTOR_MEMORY}, worded as the shipped one. */
  static final String NO_MEMORY =
      "Spark's execution memory for the task had no room for more than 0 MiB of buffered rows";

  private final SimContext ctx;
  private final Workload w;
  private final int id;
  private final long maxRowsPerTablet;
  private final WriteChunk chunks;
  private final InsertIntoBatchTransaction inserts;
  private final PushBatchShare shares;
  private final LossReport losses;

  /** The text form of each queue, by queue index (what the idempotent sink keys rows by). */
  private final String[] queueKeys;

  /** Where a read's skipped rows go: the query's report (a zombie's reaches nobody). */
  interface LossReport {
    void report(PartitionId partition, long fromRow, long toRow);
  }

  TaskAttempts(SimContext ctx, int driverId, long maxRowsPerTablet, LossReport losses) {
    this.ctx = ctx;
    this.w = ctx.workload;
    this.id = driverId;
    this.maxRowsPerTablet = maxRowsPerTablet;
    this.losses = losses;
    this.queueKeys = new String[w.queues().size()];
    for (int q = 0; q < queueKeys.length; q++) {
      queueKeys[q] = w.queues().get(q).key();
    }
    this.chunks =
        new WriteChunk(
            ctx.io,
            (attempt, outcome, error) ->
                ctx.trace("d" + id + " chunk attempt " + attempt + " failed (" + outcome + ")"));
    this.inserts =
        new InsertIntoBatchTransaction(
            ctx.io, (tx, cause) -> ctx.trace("d" + id + " insert failed; aborting " + tx));
    this.shares = new PushBatchShare(ctx.io, ctx.io);
  }

  /**
   * The task's partition reader, as {@code YtPartitionReader} reads: one {@link
   * ReadRanges#keepingTextBytes} over the task's ranges, walked with {@code advance}, each row read
   * from the pull's batch at its index.
   */
  List<QueueRow> read(TaskAssignment task) {
    ReadRanges read =
        ReadRanges.keepingTextBytes(
            ctx.io,
            ctx.io,
            Workload.CONSUMER,
            task.ranges(),
            w.pullLimit(),
            w.dataLossPolicy(),
            loss ->
                losses.report(loss.partition(), loss.requestedOffset(), loss.firstAvailableRow()));
    List<QueueRow> rows = new ArrayList<>();
    long[] perRange = new long[task.ranges().size()];
    int at = 0;
    while (read.advance()) {
      while (!task.ranges().get(at).equals(read.currentRange())) {
        at++;
      }
      perRange[at]++;
      rows.add(read.batch().row(read.index()));
    }
    for (int i = 0; i < perRange.length; i++) {
      ctx.verifier.onRangeRead(task.ranges().get(i), perRange[i]);
    }
    return rows;
  }

  /** The aggregate query's map side: the count of each key. */
  static TreeMap<Long, Long> countByKey(List<QueueRow> rows) {
    TreeMap<Long, Long> counts = new TreeMap<>();
    for (QueueRow row : rows) {
      counts.merge((Long) row.data().get("k"), 1L, Long::sum);
    }
    return counts;
  }

  /**
   * The aggregate query's reduce side: reduce task {@code r}'s keys, summed over the map outputs.
   */
  static List<Row> sumsOf(List<TreeMap<Long, Long>> mapOutputs, int r, int reduceTasks) {
    TreeMap<Long, Long> sums = new TreeMap<>();
    for (TreeMap<Long, Long> part : mapOutputs) {
      if (part == null) {
        throw new QueryFailure("reduce stage ran before the map stage finished", false, null);
      }
      part.forEach(
          (k, n) -> {
            if (Math.floorMod(k, reduceTasks) == r) {
              sums.merge(k, n, Long::sum);
            }
          });
    }
    List<Row> out = new ArrayList<>();
    sums.forEach((k, n) -> out.add(Row.of("k", k, "n", n)));
    return out;
  }

  /**
   * The sink's DataWriter. At-least-once and idempotent: {@link WriteChunk} per chunk, each its own
   * transaction. Transactional: only the attempt the commit coordinator authorizes inserts into the
   * batch transaction (Spark's DataWritingSparkTask), through {@link InsertIntoBatchTransaction},
   * which aborts the transaction when an insert fails. Producer: {@link PushBatchShare}.
   */
  void write(
      BatchInFlight batch,
      List<Row> out,
      int failArg,
      int stage,
      int task,
      int attempt,
      boolean zombie) {
    if (w.mode() == SimMode.TRANSACTIONAL) {
      writeInTransaction(batch, out, failArg, stage, task, attempt);
      return;
    }
    if (w.mode() == SimMode.STATIC_TABLE) {
      appendToStaticTable(batch, out, failArg, stage, task, attempt);
      return;
    }
    if (w.mode() == SimMode.PRODUCER) {
      pushShare(batch, out, failArg, task, zombie);
    } else {
      writeChunks(out, failArg, task);
    }
    resultReachesDriver(batch, stage, task, attempt, false);
  }

  /**
   * Transactional mode's DataWriter, as {@code TransactionalDataWriter} makes the calls: a row at a
   * time into {@link TransactionalTaskWriter} (counted at its tablet and kept), then, only for the
   * attempt the commit coordinator authorizes (Spark's {@code DataWritingSparkTask}), its commit,
   * which inserts the kept rows into the batch transaction through {@link
   * InsertIntoBatchTransaction}. Each attempt's end goes to the batch's {@link
   * io.ytstream.application.BatchWriteJob}, as the sink's job listener hears it.
   */
  private void writeInTransaction(
      BatchInFlight batch, List<Row> out, int failArg, int stage, int task, int attempt) {
    TransactionId tx = new TransactionId(batch.tx.id().value());
    int tablets = w.outputTablets();
    KeptRows kept = new KeptRows();
    TransactionalTaskWriter<Row> writer =
        new TransactionalTaskWriter<>(
            inserts,
            tx,
            batch.id,
            Workload.OUTPUT,
            false,
            task,
            tablets,
            w.writeChunk(),
            maxRowsPerTablet,
            kept);
    for (Row row : out) {
      writer.write(ctx.tabletChoice.chosen(row, tablets), row);
    }
    if (failArg >= 0) {
      writer.abort();
      ended(batch, task, attempt, Outcome.FAILED_BEFORE_INSERT);
      throw new IllegalStateException("simulated task failure before commit");
    }
    if (!batch.authorize(stage, task, attempt)) {
      ctx.trace("d" + id + " commit denied to attempt " + attempt + " of task " + task);
      writer.abort();
      ended(batch, task, attempt, Outcome.COMMIT_DENIED);
      return;
    }
    if (ctx.faults.fires(SimFault.EXECUTOR_MEMORY)) {
      // TransactionRowBuffer found no room: it drops what it kept and keeps no more.
      ctx.trace("d" + id + " task " + task + " has no execution memory left for its rows");
      kept.stop(NO_MEMORY, 0);
    }
    // The executor is lost after the first insert: within the second chunk's conversion, or,
    // with one chunk, once the inserts are done.
    int lost = out.isEmpty() ? -1 : ctx.faults.tick(SimFault.EXECUTOR_LOST);
    int[] converted = {0};
    WriterReport report;
    try {
      report =
          writer.commit(
              (row, tablet) -> {
                if (lost >= 0 && converted[0]++ == w.writeChunk()) {
                  throw new ExecutorLost();
                }
                return tablets == 1 ? row : row.with("$tablet_index", (long) tablet);
              },
              () -> {});
      if (lost >= 0) {
        throw new ExecutorLost();
      }
    } catch (ExecutorLost e) {
      // Nothing ran on the executor after this: no abort; the coordinator clears the lock.
      ctx.trace("d" + id + " executor of attempt " + attempt + " of task " + task + " lost");
      batch.authorizedAttemptFailed(stage, task);
      ended(batch, task, attempt, Outcome.EXECUTOR_LOST);
      throw new IllegalStateException("simulated executor lost after the task's first insert");
    } catch (RuntimeException e) {
      batch.authorizedAttemptFailed(stage, task);
      if (!(e instanceof SimulatedCrash)) {
        ended(batch, task, attempt, Outcome.FAILED_AFTER_INSERT);
      }
      throw e;
    }
    batch.reports[batch.slot(stage, task)] = report;
    resultReachesDriver(batch, stage, task, attempt, true);
  }

  /**
   * Static table mode's DataWriter, as {@code StaticTableDataWriter} makes the calls: a row at a
   * time into {@link StaticTableTaskWriter}, which appends chunk by chunk in a master transaction
   * nested in the batch's; then, for the attempt the commit coordinator authorizes, its commit into
   * the batch's. A failed commit may have landed (its answer lost): the listener hears it as a
   * failure after the inserts began, as the shipped writer marks it.
   */
  private void appendToStaticTable(
      BatchInFlight batch, List<Row> out, int failArg, int stage, int task, int attempt) {
    StaticTableTaskWriter writer =
        new StaticTableTaskWriter(
            ctx.io.staticTables(),
            batch.staticBatch.transaction().id(),
            batch.id,
            batch.staticBatch.writes(),
            Workload.OUTPUT,
            SimStreamingWrite.TRANSACTION_TIMEOUT,
            w.writeChunk(),
            ctx.cluster.ports().time());
    try {
      for (Row row : out) {
        writer.write(row);
      }
      if (failArg >= 0) {
        throw new IllegalStateException("simulated task failure before commit");
      }
    } catch (RuntimeException e) {
      writer.abort(); // Spark calls the writer's abort when the task fails
      if (!(e instanceof SimulatedCrash)) {
        ended(batch, task, attempt, Outcome.FAILED_BEFORE_INSERT);
      }
      throw e;
    }
    if (!batch.authorize(stage, task, attempt)) {
      ctx.trace("d" + id + " commit denied to attempt " + attempt + " of task " + task);
      writer.abort();
      ended(batch, task, attempt, Outcome.COMMIT_DENIED);
      return;
    }
    try {
      batch.staticReports[batch.slot(stage, task)] = writer.commit();
    } catch (RuntimeException e) {
      batch.authorizedAttemptFailed(stage, task);
      if (!(e instanceof SimulatedCrash)) {
        ended(batch, task, attempt, Outcome.FAILED_AFTER_INSERT);
      }
      throw e;
    }
    if (!out.isEmpty() && ctx.faults.tick(SimFault.EXECUTOR_LOST) >= 0) {
      // The nested transaction committed into the batch's, and the executor is gone before its
      // result reached the driver: Spark runs the task again.
      ctx.trace("d" + id + " executor of attempt " + attempt + " of task " + task + " lost");
      batch.staticReports[batch.slot(stage, task)] = null;
      batch.authorizedAttemptFailed(stage, task);
      ended(batch, task, attempt, Outcome.EXECUTOR_LOST);
      throw new IllegalStateException("simulated executor lost after the task's commit");
    }
    resultReachesDriver(batch, stage, task, attempt, true);
  }

  /**
   * The attempt finished: its result reaches the driver, or ({@link SimFault#RESULT_LOST}) it does
   * not, and Spark runs the task again.
   */
  private void resultReachesDriver(
      BatchInFlight batch, int stage, int task, int attempt, boolean authorized) {
    if (ctx.faults.fires(SimFault.RESULT_LOST)) {
      ctx.trace("d" + id + " result of attempt " + attempt + " of task " + task + " lost");
      if (authorized) {
        batch.reports[batch.slot(stage, task)] = null;
        batch.staticReports[batch.slot(stage, task)] = null;
        batch.authorizedAttemptFailed(stage, task);
      }
      ended(batch, task, attempt, Outcome.RESULT_LOST);
      throw new IllegalStateException("simulated loss of the task's result");
    }
    ended(batch, task, attempt, Outcome.SUCCEEDED);
  }

  /** What the sink's job listener hears of a write attempt's end. */
  private static void ended(BatchInFlight batch, int task, int attempt, Outcome outcome) {
    batch.writeJob.taskEnded(
        new TaskAttemptEnd(
            task,
            outcome,
            "task attempt " + attempt + " of partition " + task + " ended with " + outcome));
  }

  /** A lost executor: nothing of the attempt runs after it, not even its abort. */
  private static final class ExecutorLost extends Error {
    private static final long serialVersionUID = 1L;

    ExecutorLost() {
      super("simulated executor loss", null, false, false);
    }
  }

  /** The rows a transactional attempt keeps until its commit ({@code TransactionRowBuffer}). */
  private static final class KeptRows implements TransactionalTaskWriter.KeptRows<Row> {
    private final List<Row> rows = new ArrayList<>();
    private String stoppedBecause;
    private long stoppedAtRow;

    @Override
    public void add(Row row, long rowNumber) {
      if (stoppedBecause == null) {
        rows.add(row);
      }
    }

    @Override
    public void stop(String why, long rowNumber) {
      if (stoppedBecause == null) {
        stoppedBecause = why;
        stoppedAtRow = rowNumber;
      }
      rows.clear();
    }

    @Override
    public String stoppedBecause() {
      return stoppedBecause;
    }

    @Override
    public long stoppedAtRow() {
      return stoppedAtRow;
    }

    @Override
    public List<Row> rows() {
      return rows;
    }

    @Override
    public void release() {
      rows.clear();
    }
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
    int[] chosen = sorted ? new int[out.size()] : ctx.tabletChoice.chosen(out, w.outputTablets());
    if (sorted) {
      Arrays.fill(chosen, -1);
    }
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
        writer.write(
            TabletChoice.at(chosen, k),
            tablet -> sorted ? row : row.with("$tablet_index", (long) tablet));
      }
      if (out.size() % w.writeChunk() != 0 && writer.chunksWritten() == failAfter) {
        throw new IllegalStateException("simulated task failure after " + failAfter + " chunks");
      }
      writer.commit();
      ctx.verifier.onWriterReport(task, chosen, writer.rowsPerTablet());
    } catch (RuntimeException e) {
      writer.abort();
      throw e;
    }
    if (failAfter >= 0) {
      throw new IllegalStateException("simulated task failure after all its chunks");
    }
  }

  /** The rows the output queue holds now, over all its tablets. */
  private long outputRows() {
    long total = 0;
    for (PartitionBounds b :
        ctx.cluster
            .ports()
            .queueMetadata()
            .partitions(QueueId.of("primary", Workload.OUTPUT.value()))) {
      total += b.totalRowCount();
    }
    return total;
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
  private void pushShare(
      BatchInFlight batch, List<Row> out, int failArg, int task, boolean zombie) {
    int failAt = failArg < 0 ? -1 : failArg % 4;
    if (failAt == 0) {
      throw new IllegalStateException("simulated task failure before its first push");
    }
    int mark = ctx.io.startedCount();
    int[] chosen = ctx.tabletChoice.chosen(out, w.outputTablets());
    ProducerTaskWriter writer =
        new ProducerTaskWriter(
            () -> shares,
            new ProducerTaskWriter.Share(
                Workload.PRODUCER,
                Workload.OUTPUT,
                Driver.QUERY_ID,
                task,
                batch.id,
                w.outputTablets(),
                w.writeChunk(),
                maxRowsPerTablet,
                batch.sourceEnd,
                SHARE_TRANSACTION_TIMEOUT));
    try {
      for (int k = 0; k < out.size(); k++) {
        Row row = out.get(k);
        writer.write(
            TabletChoice.at(chosen, k), tablet -> row.with("$tablet_index", (long) tablet));
        if ((failAt == 1 || failAt == 2) && writer.chunksPushed() > 0) {
          throw new IllegalStateException("simulated task failure after its first chunk");
        }
      }
      if (failAt == 1 || failAt == 2) {
        throw new IllegalStateException("simulated task failure before its commit");
      }
      long before = outputRows();
      Optional<BatchShareOutcome> outcome = writer.commit();
      if (!zombie) {
        // Only a zombie's calls have other steps run inside them: the live commit's rows are its.
        ctx.verifier.onShareOutcome(task, out.size(), outputRows() - before, outcome);
      }
      ctx.verifier.onWriterReport(task, chosen, writer.rowsPerTablet());
      trace(
          batch,
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
      boolean killed = ctx.io.takeTaskKill();
      if (failAt != 2) {
        try {
          writer.abort(); // Spark calls the writer's abort when the task fails
        } catch (RuntimeException abortFailed) {
          if (!killed) {
            throw abortFailed;
          }
          // A killed task's thread is interrupted: its abort request cannot leave it.
        }
        if (!zombie && !killed && !(e instanceof SimulatedCrash)) {
          ctx.verifier.onFailedWrite(
              "attempt of task " + task + " of batch " + batch.id, ctx.io.startedSince(mark));
        }
      }
      if (killed) {
        Thread.interrupted(); // the executor's thread goes on to its next task
        ctx.trace("d" + id + " attempt of task " + task + " killed mid-push");
      }
      throw e;
    }
    if (failAt == 3) {
      throw new IllegalStateException("simulated task failure after its share committed");
    }
  }

  private void trace(BatchInFlight batch, int task, String what) {
    if (ctx.tracing()) {
      ctx.trace("d" + id + " task " + task + " share of batch " + batch.id + ": " + what);
    }
  }

  /** The query's map side: each source row to its output rows. */
  List<Row> transform(List<QueueRow> rows) {
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
}
