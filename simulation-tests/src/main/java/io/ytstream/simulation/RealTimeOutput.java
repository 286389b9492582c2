package io.ytstream.simulation;

import io.ytstream.application.checkpoint.QueryCheckpoint;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.DataLoss;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.simulation.check.ConsumerAheadOfOutput;
import io.ytstream.simulation.check.DuplicateWrite;
import io.ytstream.simulation.check.FalseDataLoss;
import io.ytstream.simulation.check.GarbageWrite;
import io.ytstream.simulation.check.LostWrite;
import io.ytstream.simulation.check.NonmonotonicOffsets;
import io.ytstream.simulation.check.NonmonotonicSend;
import io.ytstream.simulation.check.PollSkip;
import io.ytstream.simulation.check.PrematureCommit;
import io.ytstream.simulation.check.RedundantRead;
import io.ytstream.simulation.check.SlotCheck;
import io.ytstream.simulation.check.SpuriousFailure;
import io.ytstream.simulation.check.StaleRead;
import io.ytstream.simulation.check.Stuck;
import io.ytstream.simulation.check.TimerFlush;
import java.util.List;
import java.util.Optional;

/**
 * Real-time Mode's hooks into the checkers of {@code io.ytstream.simulation.check}, and its
 * reference model of the output: per source row the copies in the output, the prefix of rows
 * written, the consumer and the committed ends, all read from the cluster's own state (the output
 * table or queue, the consumer, the checkpoint as stored), never from what a driver believes.
 */
final class RealTimeOutput extends RunChecks {

  private final RealTimeContext ctx;
  private final RealTimeWorkload w;
  private final QueryCheckpoint stored;

  /** Per partition: every row below it is in the output. */
  private final long[] written;

  private final long[] committed;

  /** Producer: the order each partition's rows come into each output tablet. */
  private final NonmonotonicSend order;

  private final RedundantRead pulls = new RedundantRead();
  private long consumerStamp = Long.MIN_VALUE;

  /** Per partition, the rows the queue held when it was re-created (null: not re-created). */
  private long[] oldRows;

  /** Per partition, the first untrimmed row when the queue was re-created. */
  private long[] trimmedAtRecreation;

  private boolean outputChanged;

  /** The stateful query's output model (null for the other writers). */
  private final StatefulOutput stateful;

  long rowsOut;
  long duplicated;
  long lost;

  RealTimeOutput(RealTimeContext ctx) {
    super(
        ctx.cluster,
        List.of(ctx.workload.queue()),
        ctx.workload.partitions(),
        ctx.workload::ordinal,
        ctx::trace);
    this.ctx = ctx;
    this.w = ctx.workload;
    // The checkpoint as stored, read past the faulty ports: the truth, not a driver's belief.
    this.stored =
        new QueryCheckpoint(
            new StoreCheckpointFiles(
                ctx.cluster.ports().checkpoints(), Workload.CHECKPOINT, "checker"));
    int n = w.partitions().size();
    written = new long[n];
    committed = new long[n];
    order = new NonmonotonicSend(n);
    stateful =
        w.mode() == RealTimeMode.STATEFUL
            ? new StatefulOutput(ledger, out, (o, r) -> ctx.isReportedLost(o, r))
            : null;
  }

  /** The consumer as last read after a step (what the run's trims and its end look at). */
  @Override
  long[] consumer() {
    return ledger.consumer();
  }

  /** A driver wrote {@code commits/N}: the batch's rows must all be in the output. */
  void onCommitted() {
    readOutput();
    Optional<StreamOffsets> end = committedEnd();
    if (end.isEmpty()) {
      return;
    }
    for (int o = 0; o < w.partitions().size(); o++) {
      PartitionId p = w.partitions().get(o);
      long e = end.get().getOrDefault(p, committed[o]);
      if (e < committed[o]) {
        out.add(
            NonmonotonicOffsets.PROPERTY,
            "the committed end of " + p + " went back from " + committed[o] + " to " + e);
      }
      committed[o] = Math.max(committed[o], e);
      if (written[o] < e && stateful == null) {
        LostWrite.missing(
            out,
            written[o],
            trimmedUnreported(o, written[o]),
            "row " + written[o] + " of " + p + ", below the committed end " + e + ",");
      }
    }
    if (stateful != null) {
      stateful.committed(committed);
    }
  }

  /** After every step: the output and the consumer, where they changed. */
  void afterStep() {
    readOutput();
    advanceWritten();
    long stamp = ctx.cluster.consumerStamp(Workload.CONSUMER);
    if (stamp == consumerStamp && !outputChanged) {
      return;
    }
    outputChanged = false;
    consumerStamp = stamp;
    long[] positions = super.consumer();
    ledger.consumerRead(positions, out, this::name);
    Optional<StreamOffsets> end = Optional.empty();
    boolean endRead = false;
    for (int o = 0; o < positions.length; o++) {
      PartitionId p = w.partitions().get(o);
      long c = positions[o];
      if (oldRows != null) {
        StaleRead.realTime(out, p.toString(), c, oldRows[o]);
      }
      if (c > written[o] && stateful == null) {
        ConsumerAheadOfOutput.passed(
            out,
            c,
            written[o],
            trimmed(o),
            ctx.isReportedLost(o, written[o]),
            "row " + written[o] + " of " + p);
      }
      if (c > committed[o]) {
        if (!endRead) {
          end = committedEnd();
          endRead = true;
        }
        PrematureCommit.consumer(
            out, p.toString(), c, end.map(x -> x.getOrDefault(p, 0)).orElse(0L));
      }
    }
  }

  /** The run ended: every row in the output, each once where the writer promises it. */
  void finish(boolean consumedAll) {
    finish(consumedAll, false);
  }

  /**
   * @param stoppedWithReason the query stopped for good with a reason it reported (its rows need
   *     not all be consumed)
   */
  void finish(boolean consumedAll, boolean stoppedWithReason) {
    readOutput();
    afterStep();
    if (stateful != null) {
      // The stateful table counts rows: a key's count, not a row's copies, says what was written.
      if (consumedAll && !stoppedWithReason && oldRows == null) {
        stateful.finish();
      }
      rowsOut = stateful.rowsOut();
    }
    for (int o = 0; o < w.partitions().size() && stateful == null; o++) {
      long consumer = ledger.consumer(o);
      for (int r = 0; r < ledger.produced(o); r++) {
        if (ledger.copies(o, r, 0) == 0 && !ctx.isReportedLost(o, r)) {
          if (oldRows != null && r >= committed[o] && r >= consumer) {
            continue; // never read, dropped with the old queue
          }
          if (r < trimmed(o)) {
            // Trimmed unread: silent loss if the query passed it, else a tail it never reached.
            if (r < committed[o] || r < consumer) {
              PollSkip.trimmedUnread(out, "row " + r + " of " + w.partitions().get(o));
            }
            continue;
          }
          lost++;
        }
      }
    }
    if (!consumedAll) {
      Stuck.unconsumed(out, stoppedWithReason, "rows were produced that the query never consumed");
    } else if (lost > 0) {
      out.add(LostWrite.PROPERTY, lost + " source rows consumed but not in the output");
    }
  }

  private Optional<StreamOffsets> committedEnd() {
    long last = -1;
    for (String name :
        new StoreCheckpointFiles(ctx.cluster.ports().checkpoints(), Workload.CHECKPOINT, "checker")
            .list("commits")) {
      if (!name.isEmpty() && name.chars().allMatch(Character::isDigit)) {
        last = Math.max(last, Long.parseLong(name));
      }
    }
    if (last < 0) {
      return Optional.empty();
    }
    try {
      return Optional.of(stored.batchEnd(last).get(0));
    } catch (IllegalStateException e) {
      // commits/N without offsets/N: two runs of the query damaged the checkpoint (the driver
      // stops with that reason; nothing to check the consumer against).
      return Optional.empty();
    }
  }

  private void readOutput() {
    TableDelta delta = ctx.cluster.readChanges(Workload.OUTPUT);
    if (delta.added().isEmpty() && delta.removed().isEmpty()) {
      return;
    }
    outputChanged = true;
    if (stateful != null) {
      stateful.read(delta);
      return;
    }
    for (Row row : delta.removed()) {
      int o = ordinalOf(row);
      long r = rowOf(row);
      if (o >= 0 && r >= 0 && r < ledger.produced(o)) {
        ledger.addCopy(o, r, 0, -1);
        rowsOut--;
      }
    }
    for (Row row : delta.added()) {
      int o = ordinalOf(row);
      long r = rowOf(row);
      if (!GarbageWrite.matches(ledger, o, r, 0, v -> 1, (v, i) -> v, (Long) row.get("v"))) {
        GarbageWrite.unmatched(out, row);
        if (o < 0 || r < 0 || r >= ledger.produced(o)) {
          continue;
        }
      }
      rowsOut++;
      int n = ledger.addCopy(o, r, 0, 1) + 1;
      if (n > 1) {
        String where = "row " + r + " of " + w.partitions().get(o);
        if (DuplicateWrite.copies(out, w.mode().exactlyOnce(), n, where) > 0
            && !w.mode().exactlyOnce()) {
          duplicated++;
        }
      }
      if (w.mode() == RealTimeMode.PRODUCER) {
        Object t = row.get(IncrementalTableReader.TABLET);
        order.arrived(out, o, t instanceof Long l ? l : -1, r, 0, true, this::name);
      }
    }
    for (int o = 0; o < written.length; o++) {
      // An overwritten or removed row: the prefix shrinks back to it.
      for (int r = 0; r < written[o]; r++) {
        if (ledger.copies(o, r, 0) <= 0 && !ctx.isReportedLost(o, r)) {
          written[o] = r;
          break;
        }
      }
    }
    advanceWritten();
  }

  /** The prefix of rows in the output, or reported lost by a task (which excuses absence only). */
  private void advanceWritten() {
    for (int o = 0; o < written.length; o++) {
      while (written[o] < ledger.produced(o)
          && (ledger.copies(o, written[o], 0) > 0 || ctx.isReportedLost(o, written[o]))) {
        written[o]++;
      }
    }
  }

  /** The first row of {@code ordinal}'s partition that retention has not trimmed. */
  private long trimmed(int ordinal) {
    if (trimmedAtRecreation != null) {
      return trimmedAtRecreation[ordinal];
    }
    PartitionId p = w.partitions().get(ordinal);
    for (PartitionBounds b : ctx.cluster.ports().queueMetadata().partitions(p.queue())) {
      if (b.index() == p.index()) {
        return b.trimmedRowCount();
      }
    }
    return 0;
  }

  /** The first untrimmed row of the partition, or 0 when {@code row} was reported lost. */
  private long trimmedUnreported(int ordinal, long row) {
    return ctx.isReportedLost(ordinal, row) ? 0 : trimmed(ordinal);
  }

  /**
   * Every row of the partition from {@code from} on is gone unread (trimmed): none is left to read,
   * so the consumer need not pass them (a real-time task meets the loss only at a pull that returns
   * rows).
   */
  boolean goneUnread(int ordinal, long from) {
    return oldRows != null
        || (trimmed(ordinal) >= inputCount(ordinal) && from <= inputCount(ordinal));
  }

  /** The query failed for data loss naming {@code losses}. */
  void onDataLossFailure(List<DataLoss> losses) {
    FalseDataLoss.failed(
        out,
        losses,
        w.dataLossPolicy(),
        loss -> {
          int o = w.ordinal(loss.partition());
          return o < 0 ? 0 : trimmed(o);
        });
  }

  /** A task of run {@code readId} pulled {@code rows} of {@code partition}. */
  void onPulled(String readId, PartitionId partition, List<QueueRow> rows) {
    if (stateful != null && !rows.isEmpty()) {
      stateful.pulled(w.ordinal(partition), rows);
    }
    if (!rows.isEmpty()) {
      pulls.pulled(
          out, readId, partition, rows.get(0).rowIndex(), rows.get(rows.size() - 1).rowIndex());
    }
  }

  /** The run had no fault at all, and its query failed. */
  void onSpuriousFailure(String failure) {
    SpuriousFailure.failed(out, failure);
  }

  /** The first batch's tasks over the partitions the slot check was told of. */
  void onFirstTasks(
      List<? extends java.util.Set<PartitionId>> slots, List<java.util.Set<PartitionId>> tasks) {
    SlotCheck.firstTasks(out, slots, tasks);
  }

  /**
   * Whether every row of {@code rows} (ordinal, row index) is in the output now or was reported
   * lost. A stalled run may still hold rows, carried from before a trim, that a newer run skipped
   * and reported; the newer run's producer session has moved past their sequence numbers, so the
   * server skips them as already written and the writer rightly goes on.
   */
  boolean inOutput(List<long[]> rows) {
    readOutput();
    for (long[] r : rows) {
      if (ledger.copies((int) r[0], r[1], 0) <= 0 && !ctx.isReportedLost((int) r[0], r[1])) {
        return false;
      }
    }
    return true;
  }

  /** The writer's next call after a tick that left rows out of the output did not fail. */
  void onTimerFlushLost(String detail) {
    TimerFlush.lost(out, detail);
  }

  /**
   * The queue is dropped and created again, empty, right after this: what it holds is remembered.
   */
  void onQueueRecreated() {
    afterStep();
    int n = w.partitions().size();
    long[] trimmedNow = new long[n];
    oldRows = new long[n];
    for (int o = 0; o < n; o++) {
      trimmedNow[o] = trimmed(o);
      oldRows[o] = inputCount(o);
    }
    trimmedAtRecreation = trimmedNow;
  }

  /**
   * The run ended after the queue was re-created: the query must have stopped (naming positions the
   * queue no longer fits) rather than run on over them. The positions are the live run's ({@code
   * livePositions}): a stalled run may have committed the old queue's into the checkpoint after its
   * successor began from earlier ones, which a restart would refuse and the successor never reads.
   */
  void onRunEndAfterRecreation(boolean stopped, Optional<StreamOffsets> livePositions) {
    boolean fits = true;
    if (livePositions.isPresent()) {
      for (long e : livePositions.get().asMap().values()) {
        fits &= e == 0; // the re-created queue is empty: only offsets 0 still fit it
      }
    } else {
      for (long e : committed) {
        fits &= e == 0;
      }
    }
    Stuck.afterRecreation(out, stopped, fits);
  }

  private int ordinalOf(Row row) {
    Object t = row.get(w.mode() == RealTimeMode.UPSERT ? Verifier.SRC_TABLET : "p");
    if (!(t instanceof Long tablet)) {
      return -1;
    }
    return tablet >= 0 && tablet < w.partitions().size() ? tablet.intValue() : -1;
  }

  private long rowOf(Row row) {
    Object r = row.get(w.mode() == RealTimeMode.UPSERT ? Verifier.SRC_ROW : "r");
    return r instanceof Long l ? l : -1;
  }
}
