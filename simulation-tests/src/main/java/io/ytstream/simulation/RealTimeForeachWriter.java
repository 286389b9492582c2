package io.ytstream.simulation;

import io.ytstream.application.Interruptions;
import io.ytstream.application.OutputTablets;
import io.ytstream.application.ProducerFencedException;
import io.ytstream.application.PushRowsBySourcePosition;
import io.ytstream.application.WriteChunk;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * A real-time task's {@code ForeachWriter}, as Spark calls it: {@code open(partitionId, epochId)}
 * when the task starts, {@code process} per row, {@code close(null)} at the batch's deadline (which
 * writes what is buffered), {@code close(error)} when the task fails (which drops it). Between rows
 * the writer's flush timer fires every {@code flushEverySteps} task steps ({@link #timer}), and a
 * failure there fails the next {@code process} or {@code close}, as in the shipped writers. What a
 * write is lives in the application: {@link WriteChunk} for the table writers ({@code
 * YtExactlyOnceForeachWriter}, {@code YtAppendForeachWriter}, whose {@code BufferedTableWriter}
 * this mirrors), {@link PushRowsBySourcePosition} for the producer writer ({@code
 * YtProducerForeachWriter} with its {@code ProducerPushBuffer}).
 */
abstract class RealTimeForeachWriter {

  final RealTimeWorkload w;
  final long partitionId;
  private RuntimeException failure;

  RealTimeForeachWriter(RealTimeWorkload w, long partitionId) {
    this.w = w;
    this.partitionId = partitionId;
  }

  /** The writer of {@code w}'s mode for task {@code partitionId}, opened. */
  static RealTimeForeachWriter open(RealTimeWorkload w, FaultyPorts io, long partitionId) {
    return switch (w.mode()) {
      case UPSERT -> new Table(w, io, partitionId, true);
      case APPEND -> new Table(w, io, partitionId, false);
      case PRODUCER -> new Producer(w, io, partitionId);
    };
  }

  /** Spark's {@code process(row)}: buffers the row's output; a full buffer is written at once. */
  final void process(QueueRow row) {
    rethrow();
    if (add(row) >= w.maxBufferedRows() || w.flushEverySteps() == 0) {
      writeAll();
    }
  }

  /** The flush timer: writes what is buffered, keeping a failure for the next call. */
  final void timer() {
    if (failure != null || buffered() == 0) {
      return;
    }
    try {
      writeAll();
    } catch (RuntimeException e) {
      failure = e;
    }
  }

  /** Spark's {@code close(null)}: writes what is buffered; throws when that fails. */
  final void closeAfterRows() {
    try {
      rethrow();
      writeAll();
    } finally {
      drop();
    }
  }

  /** Spark's {@code close(error)}: the task failed, what is buffered is dropped. */
  final void closeAfterError() {
    drop();
  }

  abstract int add(QueueRow row);

  abstract int buffered();

  abstract void writeAll();

  abstract void drop();

  private void rethrow() {
    RuntimeException f = failure;
    if (f == null) {
      return;
    }
    if (f instanceof ProducerFencedException || Interruptions.isInterruption(f)) {
      throw f;
    }
    throw new IllegalStateException("writing failed: " + f.getMessage(), f);
  }

  /** The table writers: upsert by source position (exactly once) or append (at least once). */
  private static final class Table extends RealTimeForeachWriter {
    private final WriteChunk chunks;
    private final boolean sorted;
    private final List<Row> buffer = new ArrayList<>();
    private long rowCount;

    Table(RealTimeWorkload w, FaultyPorts io, long partitionId, boolean sorted) {
      super(w, partitionId);
      this.chunks = new WriteChunk(io, WriteChunk.RetryListener.NONE);
      this.sorted = sorted;
    }

    @Override
    int add(QueueRow row) {
      long v = (Long) row.data().get("v");
      if (sorted) {
        buffer.add(
            Row.of(
                Verifier.SRC_QUEUE,
                w.queue().key(),
                Verifier.SRC_TABLET,
                (long) row.tabletIndex(),
                Verifier.SRC_ROW,
                row.rowIndex(),
                "v",
                v));
      } else {
        // YtAppendForeachWriter.toOutput: task number plus row number, modulo the tablets.
        long tablet = OutputTablets.forRow(partitionId, rowCount++, w.outputTablets());
        buffer.add(
            Row.of(
                "p",
                (long) row.tabletIndex(),
                "r",
                row.rowIndex(),
                "i",
                0L,
                "v",
                v,
                "$tablet_index",
                tablet));
      }
      return buffer.size();
    }

    @Override
    int buffered() {
      return buffer.size();
    }

    @Override
    void writeAll() {
      if (buffer.isEmpty()) {
        return;
      }
      List<Row> chunk = List.copyOf(buffer);
      buffer.clear();
      chunks.write(Workload.OUTPUT, sorted, chunk);
    }

    @Override
    void drop() {
      buffer.clear();
    }
  }

  /** The producer writer: a session per source partition, rows numbered by source row index. */
  private static final class Producer extends RealTimeForeachWriter {
    /** The writer id: the query id, which the checkpoint keeps, so every run names it so. */
    static final String WRITER_ID = "sim-query";

    private final PushRowsBySourcePosition rows;

    Producer(RealTimeWorkload w, FaultyPorts io, long partitionId) {
      super(w, partitionId);
      this.rows =
          new PushRowsBySourcePosition(
              "YtProducerForeachWriter",
              io,
              Workload.PRODUCER,
              Workload.OUTPUT,
              WRITER_ID,
              PushRowsBySourcePosition.Listener.NONE);
    }

    @Override
    int add(QueueRow row) {
      long v = (Long) row.data().get("v");
      // YtProducerForeachWriter.process: a source partition keeps to one output tablet.
      Row out =
          Row.of(
              "p",
              (long) row.tabletIndex(),
              "r",
              row.rowIndex(),
              "i",
              0L,
              "v",
              v,
              "$tablet_index",
              (long) row.tabletIndex() % w.outputTablets());
      return rows.add("", row.tabletIndex(), row.rowIndex(), out);
    }

    @Override
    int buffered() {
      return rows.buffered();
    }

    @Override
    void writeAll() {
      rows.pushAll();
    }

    @Override
    void drop() {
      rows.clear();
    }
  }
}
