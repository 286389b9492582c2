package io.ytstream.simulation;

import io.ytstream.application.BatchShareOutcome;
import io.ytstream.application.CommitTransactionalSink;
import io.ytstream.application.ConsumerFencedException;
import io.ytstream.application.MeasureLag;
import io.ytstream.application.PlanMicroBatch;
import io.ytstream.application.ServiceColumns;
import io.ytstream.core.delivery.CheckpointRecovery;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.DataLoss;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.TransactionId;
import io.ytstream.simulation.check.AbortedRead;
import io.ytstream.simulation.check.BatchBound;
import io.ytstream.simulation.check.BatchUnderfilled;
import io.ytstream.simulation.check.CheckpointConsumerDisagree;
import io.ytstream.simulation.check.ChunkBound;
import io.ytstream.simulation.check.CommitOutcome;
import io.ytstream.simulation.check.ConsumerAheadOfOutput;
import io.ytstream.simulation.check.DuplicateWrite;
import io.ytstream.simulation.check.FalseDataLoss;
import io.ytstream.simulation.check.LostWrite;
import io.ytstream.simulation.check.PollSkip;
import io.ytstream.simulation.check.ProgressMisreported;
import io.ytstream.simulation.check.SpuriousFailure;
import io.ytstream.simulation.check.StaleRead;
import io.ytstream.simulation.check.StaticReadMismatch;
import io.ytstream.simulation.check.StopNotClean;
import io.ytstream.simulation.check.Stuck;
import io.ytstream.simulation.check.TransactionLease;
import io.ytstream.simulation.check.TransactionLeftOpen;
import io.ytstream.simulation.check.TriggerPacing;
import io.ytstream.simulation.check.WriterReport;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The micro-batch runtime's hooks into the checkers of {@code io.ytstream.simulation.check}: each
 * hook reads the cluster directly (no faults), keeps the reference model of what was produced and
 * consumed ({@link OutputLedger} for the output), and hands the facts to the checker of the
 * property they bear on, which names the violation after the anomaly it catches.
 */
final class Verifier extends RunChecks {

  static final String SRC_QUEUE = ServiceColumns.QUEUE;
  static final String SRC_TABLET = ServiceColumns.TABLET_INDEX;
  static final String SRC_ROW = ServiceColumns.ROW_INDEX;

  private final SimContext ctx;
  private final Workload w;
  private final SimCluster cluster;

  private final OutputLedger outputs;

  /** Producer mode's session checks; null in the other modes. */
  private final ProducerSessions sessions;

  private final ProgressMisreported progress;
  private final BatchUnderfilled underfilled;
  long lost;
  long duplicated;
  long rowsOut;

  private final StaleRead staleRead = new StaleRead();

  Verifier(SimContext ctx) {
    super(
        ctx.cluster,
        ctx.workload.queues(),
        ctx.workload.partitions(),
        ctx.workload::ordinal,
        ctx::trace);
    this.ctx = ctx;
    this.w = ctx.workload;
    this.cluster = ctx.cluster;
    underfilled = new BatchUnderfilled(cluster.ports().queueMetadata(), w.queues());
    progress =
        new ProgressMisreported(
            out,
            cluster.ports().queueMetadata(),
            cluster.ports().queueReader(),
            Workload.CONSUMER,
            w.queues(),
            w::ordinal,
            w.partitions().size(),
            w.queueRowWeight(),
            w.queueTimestamps());
    outputs = new OutputLedger(ctx, ledger);
    sessions = w.mode() == SimMode.PRODUCER ? new ProducerSessions(w, cluster, out) : null;
  }

  /** The query reported row {@code row} of partition {@code ordinal} lost (first report only). */
  void onReportedLost(int ordinal, long row) {
    outputs.excuse(ordinal, row);
  }

  /**
   * A task read {@code rowsRead} rows of {@code range}. The bound is on rows read, not on the
   * range's width: a range may begin in rows that were trimmed before it was planned (the logged
   * start of a batch that skipped them under SKIP_AND_REPORT), and those are never read.
   */
  void onRangeRead(OffsetRange range, long rowsRead) {
    BatchBound.rangeRead(out, range, rowsRead, w.maxRowsPerPartition());
  }

  /**
   * A writer task committed: it was handed a row for each of {@code chosen} (the tablet the job
   * chose for it, or -1), and its report counts {@code rowsPerTablet} (one counter for a sorted
   * output).
   */
  void onWriterReport(int taskPartition, int[] chosen, long[] rowsPerTablet) {
    WriterReport.committed(out, taskPartition, chosen, rowsPerTablet);
  }

  /**
   * Task {@code taskPartition}'s producer writer committed {@code handed} rows with {@code outcome}
   * (what the Spark writer logs and reports), and the output grew by {@code added} rows: the rows
   * it says it wrote are those that landed, and they and the rows it says were already there are
   * what its decision calls for (all handed rows pushed, or all already pushed, or none either way
   * when the session holds another share of the batch or a later batch).
   */
  void onShareOutcome(
      int taskPartition, int handed, long added, Optional<BatchShareOutcome> outcome) {
    WriterReport.share(out, taskPartition, handed, added, outcome);
  }

  /**
   * The source's progress report after a batch ({@link ProgressMisreported}); {@code
   * plannedLostRows}: the trimmed rows this driver's plans skipped.
   */
  void onSourceProgress(
      StreamOffsets end,
      Optional<StreamOffsets> latest,
      Map<String, String> metrics,
      long plannedLostRows,
      boolean zombie) {
    progress.report(end, latest, metrics, plannedLostRows, zombie, staleRead.any());
  }

  /** The source could not read the lag columns for its report. */
  void onLagUnreadable(RuntimeException e) {
    progress.lagUnreadable(e);
  }

  /** The per-partition lag the source keeps for the engine's metrics after a report. */
  void onLastLag(StreamOffsets end, StreamOffsets latest, Optional<MeasureLag.Lag> lag) {
    progress.lastLag(end, latest, lag, staleRead.any());
  }

  /**
   * The cluster refused a commit for too many rows in one tablet: the sink knows every tablet's
   * rows before it commits (the writers' reports, a share's count) and must refuse such a batch
   * itself, naming the fix, before its rows go out.
   */
  void onCommitOverTabletLimit(RuntimeException e) {
    if (ctx.settingRowLimit > ctx.rowLimit) {
      // The sink was told a higher limit than the cluster's: it cannot refuse what it cannot
      // count, and its refusal is judged when the commit fails (onClusterRefusedBatch).
      return;
    }
    out.add(
        BatchBound.PROPERTY,
        "a commit went to the cluster over its per-tablet row limit: " + e.getMessage());
  }

  /**
   * A slow task kept the driver waiting {@code elapsedMs} since {@code tx} opened, with its pinger
   * running {@code renewals} times: a transaction open before must be open after, unless two
   * renewals in a row failed; and the renewals come every third of the timeout, not more often.
   */
  void onLeaseHeld(
      TransactionId tx,
      boolean liveBefore,
      boolean liveAfter,
      int mostFailedInARow,
      long renewals,
      long elapsedMs,
      Duration timeout) {
    TransactionLease.held(
        out, tx, liveBefore, liveAfter, mostFailedInARow, renewals, elapsedMs, timeout);
  }

  /** {@code what} failed; the transactions it started must be over or asked to abort. */
  void onFailedWrite(String what, List<TransactionId> transactions) {
    TransactionLeftOpen.failedWrite(out, what, transactions, ctx.io::leftOpen);
  }

  /**
   * {@code step} failed because another writer moved the consumer: the error must name the consumer
   * and say where the partition stands against what the advance expected, or why it cannot be
   * advanced, for the user to find the other writer.
   */
  void onConsumerFenced(String step, ConsumerFencedException e) {
    CommitOutcome.consumerFenced(out, step, e.getMessage(), Workload.CONSUMER.path().value());
  }

  /** The sink's commit of batch {@code batch} failed as fenced by another writer. */
  void onSinkFenced(long batch, StreamOffsets start, StreamOffsets end, RuntimeException e) {
    CommitOutcome.sinkFenced(out, batch, start, end, consumer(), w::ordinal, e);
  }

  /**
   * Batch {@code batch} ({@code start} to {@code end}) committed through the sink with {@code
   * result}, the consumer at {@code before} (by ordinal) when the commit began.
   */
  void onSinkCommitted(
      long batch,
      StreamOffsets start,
      StreamOffsets end,
      long[] before,
      TransactionId tx,
      CommitTransactionalSink.Result result) {
    CommitOutcome.sinkCommitted(
        out,
        batch,
        start,
        end,
        before,
        consumer(),
        w::ordinal,
        tx,
        tx != null && cluster.transactionLive(tx),
        result);
  }

  /**
   * The user stopped the query during {@code step}, which then ended with {@code failure} (null: it
   * returned), the thread's interrupt flag set or not. Spark's {@code stop()} waits for the query's
   * thread, so the flag must stay set for the calls after it to fail too; and the thread must end
   * with an error Spark takes for an interruption, or the stopped query ends failed.
   */
  void onQueryStopped(String step, RuntimeException failure, boolean interruptFlagSet) {
    StopNotClean.stopped(
        out,
        step,
        failure,
        failure == null || SparkInterruptions.isInterruption(failure),
        interruptFlagSet);
  }

  /** Step {@code step} failed with {@code e}, which no fault makes. */
  void onSpuriousFailure(String step, RuntimeException e) {
    SpuriousFailure.failed(out, step + " failed: " + e);
  }

  /** The query fails for data loss naming {@code losses}. */
  void onDataLossFailure(List<DataLoss> losses) {
    FalseDataLoss.failed(out, losses, w.dataLossPolicy(), loss -> -1);
  }

  /** The sink refused batch {@code batch} as too large, with {@code perTablet} rows per tablet. */
  void onBatchRefused(
      long batch,
      long[] perTablet,
      long maxRowsPerTablet,
      StreamOffsets start,
      StreamOffsets end,
      String message) {
    BatchBound.refusal(
        out,
        batch,
        BatchBound.tabletRefusalError(perTablet, maxRowsPerTablet, start, end, message),
        message);
  }

  /**
   * The sink's commit of batch {@code batch} failed with the cluster's "too many rows in tablet"
   * refusal in {@code e}'s causes, but not as the sink's refusal: the user gets the cluster's words
   * without the fix, and a restart meets the same refusal.
   */
  void onClusterRefusalUnexplained(long batch, RuntimeException e) {
    out.add(
        BatchBound.PROPERTY,
        "batch "
            + batch
            + "'s commit was refused by the cluster for too many rows in a tablet, and the sink"
            + " failed with "
            + e
            + " instead of refusing the batch with the fix");
  }

  /**
   * The cluster refused batch {@code batch}'s commit as over its per-tablet limit, with {@code
   * worst} rows for one tablet, which the limit the sink was told allows.
   */
  void onClusterRefusedBatch(long batch, long worst, String message) {
    BatchBound.refusal(
        out,
        batch,
        BatchBound.clusterRefusalError(worst, ctx.settingRowLimit, ctx.rowLimit, message),
        message);
  }

  /**
   * The sink's commit of batch {@code batch} ended (refused when {@code message} is not null) while
   * a task reported it kept none of its rows ({@code notKept}), the consumer at {@code before} (by
   * ordinal) when the commit began.
   */
  void onRowsNotKept(
      long batch,
      String notKept,
      StreamOffsets start,
      StreamOffsets end,
      long[] before,
      String message) {
    if (message == null) {
      LostWrite.committedNotKept(out, batch, notKept);
      return;
    }
    if (!Arrays.equals(before, consumer())) {
      out.add(
          ConsumerAheadOfOutput.PROPERTY,
          "batch " + batch + " was refused for executor memory, but the consumer moved");
    }
    BatchBound.refusal(
        out, batch, BatchBound.memoryRefusalError(notKept, start, end, message), message);
  }

  /** A write request to the output ({@code call}) carried {@code rows} rows. */
  void onWriteRequest(String call, int rows) {
    ChunkBound.writeRequest(out, call, rows, w.writeChunk());
  }

  /** A static read of {@code queues} from earliest to latest returned {@code read}. */
  void onStaticRead(List<QueueId> queues, Map<PartitionId, List<QueueRow>> read) {
    StaticReadMismatch.read(out, cluster.ports().queueMetadata(), queues, read, w::ordinal, ledger);
  }

  /**
   * A trigger was planned {@code sinceLastMs} after the last batch with rows this source ran
   * ({@link Long#MAX_VALUE} before its first): {@link TriggerPacing}.
   */
  void onPaced(StreamOffsets start, PlanMicroBatch.PlannedEnd planned, long sinceLastMs) {
    TriggerPacing.paced(
        out,
        cluster.ports().queueMetadata(),
        w.queues(),
        w.trigger(),
        w.availableNow(),
        start,
        planned,
        sinceLastMs);
  }

  /** The queues' bounds as a plan begins, to tell whether they moved while it ran. */
  void beforePlan() {
    underfilled.before();
  }

  /**
   * The source planned the batch from {@code start}: within its bounds ({@link BatchBound}) and no
   * smaller than its caps allow ({@link BatchUnderfilled}); trimmed rows it skipped do not count.
   */
  void onPlanned(StreamOffsets start, PlanMicroBatch.PlannedEnd planned) {
    long rows = -planned.lostRowCount();
    StreamOffsets end = planned.end();
    for (int i = 0; i < end.size(); i++) {
      rows += end.offsetAt(i) - start.getOrDefault(end.partitionAt(i), end.offsetAt(i));
    }
    if (!planned.placesNewPartitions()) {
      underfilled.planned(
          out,
          start,
          planned,
          rows,
          w.maxRowsPerPartition(),
          w.trigger(),
          w.availableNow(),
          w.queueRowWeight());
    }
    BatchBound.planned(out, start, planned, rows, w.trigger(), w.queueRowWeight());
  }

  /** After a driver recovered: does the consumer agree with the checkpoint it recovered from? */
  void onRecovery(CheckpointRecovery.Decision d, StreamOffsets start, StreamOffsets end) {
    CheckpointConsumerDisagree.recovered(
        out, d, start, end, consumer(), w.partitions(), w.mode() == SimMode.TRANSACTIONAL);
  }

  /**
   * A queue was re-created: from now on no planning step may move the consumer on it. A batch
   * planned before may still commit what it read from the old queue.
   */
  void onQueueRecreated(QueueId queue) {
    long[] c = consumer();
    for (int o = 0; o < c.length; o++) {
      if (w.partitions().get(o).queue().equals(queue)) {
        staleRead.recreated(o, c[o]);
      }
    }
  }

  /** After a step of {@code kind} (null: a step whose kind is not known, or none). */
  void afterStep(Step.Kind kind) {
    afterStep(kind, kind == Step.Kind.SINK_COMMIT);
  }

  /**
   * After a step of {@code kind}, which may have committed output when {@code mayHaveCommitted} (a
   * step that stopped the query is judged as any other, whatever it left behind).
   */
  void afterStep(Step.Kind kind, boolean mayHaveCommitted) {
    long[] c = consumer();
    boolean planning = kind == Step.Kind.PLAN || kind == Step.Kind.PLAN_TASKS;
    staleRead.afterStep(out, c, planning, kind, this::name);
    afterStep(mayHaveCommitted);
  }

  /** After every step: monotonic offsets, and the output checks when something may have moved. */
  void afterStep(boolean mayHaveCommitted) {
    long[] c = consumer();
    boolean changed = ledger.consumerRead(c, out, this::name);
    if (sessions != null) {
      changed |= sessions.refresh();
    }
    if (changed || (mayHaveCommitted && w.mode() == SimMode.TRANSACTIONAL)) {
      checkOutput(c, false);
    }
  }

  /** The end of the run: output against input, and progress. */
  void finish() {
    long[] c = consumer();
    for (int o = 0; o < c.length; o++) {
      // A re-created queue's unread rows were dropped with it.
      if (c[o] < ledger.produced(o) && !staleRead.recreated(o)) {
        Stuck.unconsumed(
            out,
            ctx.stoppedWithReason(),
            w.partitions().get(o)
                + " consumer at "
                + c[o]
                + " of "
                + ledger.produced(o)
                + " rows when the run ended");
        break;
      }
    }
    checkOutput(c, true);
  }

  private long[] trimmed() {
    long[] t = new long[w.partitions().size()];
    for (QueueId q : w.queues()) {
      for (PartitionBounds b : cluster.ports().queueMetadata().partitions(q)) {
        t[w.ordinal(new PartitionId(q, b.index()))] = b.trimmedRowCount();
      }
    }
    return t;
  }

  /**
   * The output checks. The outputs follows the table's changes; the rows behind the consumer are
   * scanned only at the end or when the outputs's totals say a scan can find something new, so
   * every check reports exactly what a scan of the whole table would.
   */
  private void checkOutput(long[] c, boolean last) {
    outputs.apply(cluster.readChanges(Workload.OUTPUT), out);
    outputs.cover(c);
    if (sessions != null) {
      sessions.refresh();
      sessions.checkUserMeta(outputs);
    }
    if (last) {
      rowsOut = outputs.rows();
    }
    if (w.query() == QueryKind.AGGREGATE) {
      checkAggregate(last);
      return;
    }
    boolean scan =
        last
            || (outputs.anyMissing()
                && !(out.has(PollSkip.PROPERTY) && out.has(ConsumerAheadOfOutput.PROPERTY)))
            || (outputs.anyDuplicate()
                && w.mode().exactlyOnce()
                && !out.has(DuplicateWrite.PROPERTY))
            || (outputs.anyAhead()
                && w.mode() == SimMode.TRANSACTIONAL
                && !out.has(AbortedRead.PROPERTY));
    if (scan) {
      scanOutput(c, last);
    }
  }

  private void scanOutput(long[] c, boolean last) {
    long[] trimmed = null;
    boolean exactlyOnce = w.mode().exactlyOnce();
    for (int o = 0; o < c.length; o++) {
      for (long r = 0; r < outputs.covered(o); r++) {
        int copies = w.query().fanOut(ledger.value(o, r));
        for (int i = 0; i < copies; i++) {
          int count = ledger.copies(o, r, i);
          if (count == 1) {
            continue;
          }
          String where = w.partitions().get(o) + " row " + r;
          // A row reported lost may still be in the output (read before the trim by an earlier
          // attempt); it only excuses absence.
          if (count == 0 && !ctx.isReportedLost(o, r)) {
            if (trimmed == null) {
              trimmed = trimmed();
            }
            if (!last) {
              ConsumerAheadOfOutput.passed(out, c[o], r, trimmed[o], false, where);
            } else {
              lost++;
              LostWrite.missing(out, r, trimmed[o], where + " (copy " + i + ")");
            }
          }
          int extra = DuplicateWrite.copies(out, exactlyOnce, count, where + " copy " + i);
          if (last) {
            duplicated += extra;
          }
        }
      }
    }
    if (w.mode() == SimMode.TRANSACTIONAL && outputs.anyAhead()) {
      long[] behind = new long[c.length];
      for (int o = 0; o < c.length; o++) {
        behind[o] = outputs.covered(o);
      }
      AbortedRead.visibleAhead(out, ledger, behind, c, this::name);
    }
  }

  private void checkAggregate(boolean last) {
    // Rows reported lost may or may not have been counted: they widen the expected interval.
    TreeMap<Long, Long> actual = outputs.actual();
    TreeMap<Long, Long> expected = outputs.expected();
    TreeMap<Long, Long> excused = outputs.excused();
    TreeMap<Long, Long> keys = new TreeMap<>(expected);
    actual.forEach(keys::putIfAbsent);
    for (Long k : keys.keySet()) {
      long want = expected.getOrDefault(k, 0L);
      long most = want + excused.getOrDefault(k, 0L);
      long got = actual.getOrDefault(k, 0L);
      if (got < want) {
        if (last) {
          lost += want - got;
          out.add(LostWrite.PROPERTY, "key " + k + " counted " + got + ", expected " + want);
        } else {
          out.add(
              ConsumerAheadOfOutput.PROPERTY,
              "key " + k + " counted " + got + " but the consumer covers " + want + " rows");
        }
      } else if (got > most) {
        if (last) {
          duplicated += got - most;
        }
        out.add(DuplicateWrite.PROPERTY, "key " + k + " counted " + got + ", expected " + most);
      }
    }
  }
}
