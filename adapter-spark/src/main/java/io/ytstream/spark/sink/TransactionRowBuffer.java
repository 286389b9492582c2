package io.ytstream.spark.sink;

import io.ytstream.application.TransactionalTaskWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.TaskContext;
import org.apache.spark.memory.MemoryConsumer;
import org.apache.spark.memory.MemoryMode;
import org.apache.spark.memory.TaskMemoryManager;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;

/**
 * The rows a transactional writer task keeps until Spark lets it commit: compact copies of Spark's
 * rows (an {@link UnsafeRow} copy is one byte array), converted to YTsaurus rows only chunk by
 * chunk while inserting. The bytes kept are reserved from Spark's execution memory for the task, so
 * the task gets its fair share of the executor's memory and no more; when Spark has no room left
 * (or the caller {@link #stop}s it) the buffer drops what it holds and keeps nothing more, and the
 * batch fails on the driver with a message instead of the executor running out of heap.
 */
final class TransactionRowBuffer implements TransactionalTaskWriter.KeptRows<InternalRow> {

  /** Memory is reserved from Spark in steps of this size, not row by row. */
  private static final long RESERVATION_STEP = 1L << 20;

  /** Object header and array header of a copied row, on top of its data bytes. */
  private static final long ROW_OVERHEAD = 48;

  private final List<InternalRow> rows = new ArrayList<>();
  private final Reservation reservation;
  private long bytes;
  private String stoppedBecause;
  private long stoppedAtRow;

  /** {@code memory} is the task's memory manager; null (outside a Spark task) bounds nothing. */
  TransactionRowBuffer(TaskMemoryManager memory) {
    this.reservation = memory == null ? null : new Reservation(memory);
  }

  /** A buffer bounded by the running task's share of Spark's execution memory. */
  static TransactionRowBuffer forCurrentTask() {
    TaskContext task = TaskContext.get();
    return new TransactionRowBuffer(task == null ? null : task.taskMemoryManager());
  }

  /** Keeps a copy of {@code row}, unless the buffer has stopped or Spark has no room for it. */
  @Override
  public void add(InternalRow row, long rowNumber) {
    if (stoppedBecause != null) {
      return;
    }
    InternalRow copy = row.copy();
    long size = ROW_OVERHEAD + sizeOf(copy);
    if (reservation != null && bytes + size > reservation.reserved()) {
      long want = Math.max(RESERVATION_STEP, bytes + size - reservation.reserved());
      if (!reservation.reserve(want)) {
        stop(
            "Spark's execution memory for the task had no room for more than "
                + mib(bytes)
                + " MiB of buffered rows",
            rowNumber);
        return;
      }
    }
    rows.add(copy);
    bytes += size;
  }

  /** Drops every row kept and keeps no more; {@code why} is reported to the driver. */
  @Override
  public void stop(String why, long rowNumber) {
    if (stoppedBecause == null) {
      stoppedBecause = why;
      stoppedAtRow = rowNumber;
    }
    rows.clear();
    bytes = 0;
    release();
  }

  /** Null while the buffer holds every row given to it. */
  @Override
  public String stoppedBecause() {
    return stoppedBecause;
  }

  /** How many rows the buffer held when it stopped. */
  @Override
  public long stoppedAtRow() {
    return stoppedAtRow;
  }

  @Override
  public List<InternalRow> rows() {
    return rows;
  }

  /** Drops the rows and gives their memory back to Spark. */
  @Override
  public void release() {
    rows.clear();
    bytes = 0;
    if (reservation != null) {
      reservation.releaseAll();
    }
  }

  private static long sizeOf(InternalRow row) {
    if (row instanceof UnsafeRow unsafe) {
      return unsafe.getSizeInBytes();
    }
    // A generic row: a reference and a boxed value per field is a fair guess.
    return 32L * Math.max(1, row.numFields());
  }

  private static long mib(long bytes) {
    return bytes >> 20;
  }

  /** The task's share of Spark's execution memory; it cannot spill (the rows must stay). */
  private static final class Reservation extends MemoryConsumer {

    Reservation(TaskMemoryManager memory) {
      super(memory, MemoryMode.ON_HEAP);
    }

    long reserved() {
      return getUsed();
    }

    boolean reserve(long size) {
      long granted = acquireMemory(size);
      if (granted < size) {
        freeMemory(granted);
        return false;
      }
      return true;
    }

    void releaseAll() {
      long used = getUsed();
      if (used > 0) {
        freeMemory(used);
      }
    }

    @Override
    public long spill(long size, MemoryConsumer trigger) {
      return 0;
    }
  }
}
