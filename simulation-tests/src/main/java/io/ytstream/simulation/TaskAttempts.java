package io.ytstream.simulation;

import io.ytstream.application.BatchShareOutcome;
import io.ytstream.application.ChunkedTaskWriter;
import io.ytstream.application.InsertIntoBatchTransaction;
import io.ytstream.application.ProducerTaskWriter;
import io.ytstream.application.PushBatchShare;
import io.ytstream.application.ReadRanges;
import io.ytstream.application.WriteChunk;
import io.ytstream.application.WriterReport;
import io.ytstream.core.delivery.OutputTablets;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.plan.TaskAssignment;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.TransactionId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A task attempt on an executor, as Spark's {@code DataWritingSparkTask} runs it: read the task's
 * ranges through {@link ReadRanges}, run the query, and hand the rows to the sink's DataWriter
 * ({@link WriteChunk} through {@link ChunkedTaskWriter}, {@link InsertIntoBatchTransaction} or
 * {@link PushBatchShare} through {@link ProducerTaskWriter}). Which attempt runs when, retries and
 * speculation are the driver's ({@link Driver}); an attempt's failure is an exception.
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
      if (failArg >= 0) {
        throw new IllegalStateException("simulated task failure before commit");
      }
      if (!batch.authorize(stage, task, attempt)) {
        ctx.trace("d" + id + " commit denied to attempt " + attempt + " of task " + task);
        return;
      }
      TransactionId tx = new TransactionId(batch.tx.id().value());
      // TransactionalDataWriter places row k of task p on tablet (p + k) mod tablets and counts it.
      int tablets = w.outputTablets();
      long[] perTablet = new long[tablets];
      List<Row> placed = new ArrayList<>(out.size());
      for (int k = 0; k < out.size(); k++) {
        int tablet = OutputTablets.forRow(task, k, tablets);
        perTablet[tablet]++;
        placed.add(tablets == 1 ? out.get(k) : out.get(k).with("$tablet_index", (long) tablet));
      }
      if (ctx.faults.fires(SimFault.EXECUTOR_MEMORY)) {
        // TransactionalDataWriter.commit once its buffer stopped: nothing inserted, rows counted.
        ctx.trace("d" + id + " task " + task + " has no execution memory left for its rows");
        batch.reports[batch.slot(stage, task)] =
            new WriterReport(
                batch.id,
                tx.value(),
                perTablet,
                "partition " + task + " stopped at row 0: " + NO_MEMORY);
        return;
      }
      try {
        inserts.insert(tx, Workload.OUTPUT, chunked(placed));
      } catch (RuntimeException e) {
        batch.authorizedAttemptFailed(stage, task);
        throw e;
      }
      batch.reports[batch.slot(stage, task)] =
          new WriterReport(batch.id, tx.value(), perTablet, null);
      return;
    }
    if (w.mode() == SimMode.PRODUCER) {
      pushShare(batch, out, failArg, task, zombie);
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
      for (Row row : out) {
        writer.write(tablet -> row.with("$tablet_index", (long) tablet));
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
      ctx.verifier.onWriterReport(task, out.size(), writer.rowsPerTablet());
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
