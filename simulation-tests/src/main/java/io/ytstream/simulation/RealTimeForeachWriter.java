package io.ytstream.simulation;

import io.ytstream.application.ForeachWriterBuffer;
import io.ytstream.application.PushRowsBySourcePosition;
import io.ytstream.application.SourcePositionKeys;
import io.ytstream.application.TableChunkBuffer;
import io.ytstream.application.WriteChunk;
import io.ytstream.core.delivery.OutputTablets;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A real-time task's {@code ForeachWriter}, as Spark calls it: {@code open(partitionId, epochId)}
 * when the task starts, {@code process} per row, {@code close(null)} at the batch's deadline (which
 * writes what is buffered), {@code close(error)} when the task fails (which drops it). Between rows
 * the writer's flush timer fires every {@code flushEverySteps} task steps ({@link #timer}). When
 * rows are written, and what a failed timer write does, is the shipped {@link
 * ForeachWriterBuffer}'s; what a write is, too: {@link TableChunkBuffer} over {@link WriteChunk}
 * for the table writers ({@code YtExactlyOnceForeachWriter}, {@code YtAppendForeachWriter}, through
 * {@code BufferedTableWriter}), {@link PushRowsBySourcePosition} for the producer writer ({@code
 * YtProducerForeachWriter}, through {@code ProducerPushBuffer}). Only the output row each source
 * row becomes is written out here.
 */
abstract class RealTimeForeachWriter {

  final RealTimeWorkload w;
  final long partitionId;
  private ForeachWriterBuffer buffer;

  RealTimeForeachWriter(RealTimeWorkload w, long partitionId) {
    this.w = w;
    this.partitionId = partitionId;
  }

  /** The writer of {@code w}'s mode for task {@code partitionId}, opened. */
  static RealTimeForeachWriter open(RealTimeWorkload w, FaultyPorts io, long partitionId) {
    RealTimeForeachWriter writer =
        switch (w.mode()) {
          case UPSERT -> new Table(w, io, partitionId, true);
          case APPEND -> new Table(w, io, partitionId, false);
          case PRODUCER -> new Producer(w, io, partitionId);
          case STATEFUL ->
              throw new IllegalStateException("the stateful query writes in StatefulCount");
        };
    writer.buffer =
        new ForeachWriterBuffer(
            writer.pending(), w.maxBufferedRows(), w.flushEverySteps() != 0, "writing");
    return writer;
  }

  /** Spark's {@code process(row)}: buffers the row's output; a full buffer is written at once. */
  final void process(QueueRow row) {
    buffer.add(() -> add(row));
  }

  /** The flush timer: writes what is buffered, keeping a failure for the next call. */
  final void timer() {
    buffer.timerFlush();
  }

  /** Spark's {@code close(null)}: writes what is buffered; throws when that fails. */
  final void closeAfterRows() {
    try {
      buffer.flush();
    } finally {
      buffer.drop();
    }
  }

  /** Spark's {@code close(error)}: the task failed, what is buffered is dropped. */
  final void closeAfterError() {
    buffer.drop();
  }

  /** Holds the output of one source row; returns how many rows are held. */
  abstract int add(QueueRow row);

  /** The rows held, as the shipped writer holds them. */
  abstract ForeachWriterBuffer.Pending pending();

  /** The table writers: upsert by source position (exactly once) or append (at least once). */
  private static final class Table extends RealTimeForeachWriter {
    /** The output's key columns, as the simulation's sorted output declares them. */
    static final List<String> KEY_COLUMNS =
        List.of(Verifier.SRC_QUEUE, Verifier.SRC_TABLET, Verifier.SRC_ROW);

    private final TableChunkBuffer rows;
    private final boolean sorted;
    private final SourcePositionKeys keys;
    private long rowCount;

    Table(RealTimeWorkload w, FaultyPorts io, long partitionId, boolean sorted) {
      super(w, partitionId);
      this.rows =
          new TableChunkBuffer(
              new WriteChunk(io, WriteChunk.RetryListener.NONE), Workload.OUTPUT, sorted);
      this.sorted = sorted;
      this.keys =
          new SourcePositionKeys(
              "YtExactlyOnceForeachWriter", Workload.OUTPUT.value(), KEY_COLUMNS, w.queue().key());
    }

    @Override
    int add(QueueRow row) {
      long v = (Long) row.data().get("v");
      if (sorted) {
        // YtExactlyOnceForeachWriter.toOutput: the row's values, keyed by source position.
        Map<String, Object> values = new TreeMap<>();
        values.put(Verifier.SRC_TABLET, (long) row.tabletIndex());
        values.put(Verifier.SRC_ROW, row.rowIndex());
        values.put("v", v);
        return rows.add(keys.keyed(values, false));
      }
      // YtAppendForeachWriter.toOutput: task number plus row number, modulo the tablets.
      long tablet = OutputTablets.forRow(partitionId, rowCount++, w.outputTablets());
      return rows.add(
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

    @Override
    ForeachWriterBuffer.Pending pending() {
      return rows;
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
    ForeachWriterBuffer.Pending pending() {
      return ForeachWriterBuffer.pushing(rows);
    }
  }
}
