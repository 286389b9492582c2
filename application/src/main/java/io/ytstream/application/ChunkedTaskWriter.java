package io.ytstream.application;

import io.ytstream.core.delivery.ChosenOutputTablet;
import io.ytstream.core.delivery.OutputTablets;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * One writer task's rows outside a batch transaction (at-least-once, idempotent receiver, static
 * writes), a row at a time as an engine's writer gets them: row k goes to the tablet {@link
 * OutputTablets} names (or the one the job chose for it, {@link #writeTo}), rows are counted per
 * tablet, and every {@code chunkSize} rows go out as one chunk of their own ({@link WriteChunk}:
 * one tablet transaction, appended to an ordered table, upserted into a sorted one). The engine
 * calls {@link #write} per row, {@link #commit} at the task's commit and {@link #abort} when the
 * task fails; a chunk written before a failure stays written, which is why this mode is
 * at-least-once (or exactly-once by key for the upsert).
 */
@DrivingUseCase
public final class ChunkedTaskWriter {

  private final WriteChunk chunks;
  private final YPath table;
  private final boolean sorted;
  private final int taskPartition;
  private final int tablets;
  private final int chunkSize;
  private final long[] rowsPerTablet;
  private final List<Row> buffer = new ArrayList<>();
  private long rowCount;
  private int chunksWritten;

  /**
   * @param tablets the output's tablets (a sorted output's rows are counted in one counter)
   * @param chunkSize the rows per chunk ({@code spark.yt.write.dynBatchSize})
   */
  public ChunkedTaskWriter(
      WriteChunk chunks,
      YPath table,
      boolean sorted,
      int taskPartition,
      int tablets,
      int chunkSize) {
    this.chunks = Objects.requireNonNull(chunks, "chunks");
    this.table = Objects.requireNonNull(table, "table");
    if (chunkSize < 1) {
      throw new IllegalArgumentException("a chunk holds at least one row: " + chunkSize);
    }
    this.sorted = sorted;
    this.taskPartition = taskPartition;
    this.tablets = tablets;
    this.chunkSize = chunkSize;
    this.rowsPerTablet = new long[sorted ? 1 : tablets];
  }

  /**
   * Takes the task's next row: into the tablet the job chose for it when {@code chosen} holds one
   * ({@link #writeTo}), else into the next tablet in turn ({@link #write(RowAtTablet)}).
   */
  public void write(OptionalInt chosen, RowAtTablet row) {
    if (chosen.isPresent()) {
      writeTo(chosen.getAsInt(), row);
    } else {
      write(row);
    }
  }

  /** Takes the task's next row; a full chunk is written before this returns. */
  public void write(RowAtTablet row) {
    place(sorted ? 0 : OutputTablets.forRow(taskPartition, rowCount, tablets), row);
  }

  /**
   * Takes the task's next row into the ordered output's tablet the job chose for it ({@link
   * ChosenOutputTablet}); a full chunk is written before this returns. The chunks written before
   * stay written if a later row is refused: this mode is at least once.
   */
  public void writeTo(int tablet, RowAtTablet row) {
    place(ChosenOutputTablet.checkedForWriter(sorted, tablet, tablets), row);
  }

  private void place(int tablet, RowAtTablet row) {
    rowsPerTablet[tablet]++;
    buffer.add(row.build(tablet));
    rowCount++;
    if (buffer.size() >= chunkSize) {
      flush();
    }
  }

  /** The task's commit: the rows of the last, partial chunk are written. */
  public void commit() {
    flush();
  }

  /** The task failed: the rows not yet written are dropped. */
  public void abort() {
    buffer.clear();
  }

  /** The rows the task handed in, per output tablet (one counter for a sorted output). */
  public long[] rowsPerTablet() {
    return rowsPerTablet.clone();
  }

  /** The chunks written so far. */
  public int chunksWritten() {
    return chunksWritten;
  }

  private void flush() {
    if (buffer.isEmpty()) {
      return;
    }
    List<Row> chunk = List.copyOf(buffer);
    buffer.clear();
    chunks.write(table, sorted, chunk);
    chunksWritten++;
  }
}
