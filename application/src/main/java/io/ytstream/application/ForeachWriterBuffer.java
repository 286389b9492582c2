package io.ytstream.application;

import java.util.function.IntSupplier;

/**
 * When a {@code ForeachWriter} task's buffered output is written: at once when the buffer is full
 * or the writer has no flush timer; on each tick of the timer otherwise; and at the task's {@code
 * close} without error. A timer write that fails is kept and fails the next {@link #add} or {@link
 * #flush}, so the task fails and the engine replays the batch from its start; a task that ends with
 * an error drops what is buffered ({@link #drop}). What a write is belongs to {@link Pending}.
 *
 * <p>Not thread-safe: the caller holds one lock around every call, its timer's included, so a
 * task's rows reach the output in order.
 */
@DrivingUseCase
public final class ForeachWriterBuffer {

  /** The rows held, and how they are written. */
  public interface Pending {
    int buffered();

    /** Writes every row held; none is held afterwards. */
    void writeAll();

    /** Drops every row held. */
    void clear();
  }

  private final Pending pending;
  private final int maxRows;
  private final boolean timed;
  private final String what;
  private RuntimeException failure;

  /**
   * @param timed whether a flush timer ticks (without one, every row is written at once)
   * @param what what a write does, for the error a failed timer write leaves ("writing to //t")
   */
  public ForeachWriterBuffer(Pending pending, int maxRows, boolean timed, String what) {
    this.pending = pending;
    this.maxRows = maxRows;
    this.timed = timed;
    this.what = what;
  }

  /** The producer's pushes as {@link Pending}. */
  public static Pending pushing(PushRowsBySourcePosition rows) {
    return new Pending() {
      @Override
      public int buffered() {
        return rows.buffered();
      }

      @Override
      public void writeAll() {
        rows.pushAll();
      }

      @Override
      public void clear() {
        rows.clear();
      }
    };
  }

  /**
   * Adds a row ({@code addRow} adds it to the pending rows and returns how many are held); a full
   * buffer, or one without a timer, is written at once.
   */
  public void add(IntSupplier addRow) {
    rethrow();
    if (addRow.getAsInt() >= maxRows || !timed) {
      pending.writeAll();
    }
  }

  /** Writes everything buffered; fails if this or an earlier timer write failed. */
  public void flush() {
    rethrow();
    pending.writeAll();
  }

  /** The timer's tick: writes what is buffered, keeping a failure for the next call. */
  public void timerFlush() {
    if (failure != null || pending.buffered() == 0) {
      return;
    }
    try {
      pending.writeAll();
    } catch (RuntimeException e) {
      failure = e;
    }
  }

  /** The task failed: what is buffered is dropped. */
  public void drop() {
    pending.clear();
  }

  private void rethrow() {
    RuntimeException f = failure;
    if (f == null) {
      return;
    }
    if (f instanceof ProducerFencedException || Interruptions.isInterruption(f)) {
      throw f;
    }
    throw new IllegalStateException(what + " failed: " + f.getMessage(), f);
  }
}
