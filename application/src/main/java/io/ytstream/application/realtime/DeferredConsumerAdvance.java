package io.ytstream.application.realtime;

import io.ytstream.application.DrivingUseCase;
import io.ytstream.core.model.StreamOffsets;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Real-time Mode: the consumer moved off the engine's thread, {@code quietMs} after a durable end
 * is handed over, so that its requests (a read of the consumer and one fenced advance per
 * partition) are not in line with the gap between two real-time batches. Each end handed over is
 * durable (its {@code commits/N} entry is written), so the commit-lag rule holds as with the
 * advance in line. An end handed over while an earlier one still waits replaces it: ends only grow,
 * and moving straight to the later one skips nothing. A failure is kept and thrown by the next
 * {@link #handOver}, failing the query one boundary later than in line.
 *
 * <p>The caller owns the thread and the time: {@link #handOver} says when a move is due, and the
 * caller's thread then calls {@link #drain}. The object is its own monitor and notifies all waiting
 * on it when it becomes {@link #idle}.
 */
@DrivingUseCase
public final class DeferredConsumerAdvance {

  /**
   * How long after a hand-over the consumer moves: well past the gap (tens of milliseconds), well
   * within the shortest real-time batch (5 s).
   */
  public static final long QUIET_MS = 500;

  private final Consumer<StreamOffsets> advancer;
  private final String consumer;
  private final long quietMs;
  private StreamOffsets waiting;
  private boolean busy;
  private RuntimeException failure;
  private boolean stopped;

  /**
   * {@code advancer}: moves the consumer to a durable end (the source's consumer advance); {@code
   * consumer}: its name, for the caller's messages.
   */
  public DeferredConsumerAdvance(Consumer<StreamOffsets> advancer, String consumer, long quietMs) {
    this.advancer = advancer;
    this.consumer = consumer;
    this.quietMs = quietMs;
  }

  /**
   * Hands over a durable end. Returns the time a {@link #drain} is due, when none is due yet (a
   * drain already due takes the new end too); throws the failure of an earlier advance, if any.
   *
   * <p>An end handed over once stopped is dropped ({@link #stopped}): Spark's asynchronous progress
   * tracking commits its last durable ends in its cleanup, after it stopped the sources. The
   * consumer then lags by them, which the commit-lag rule allows: the checkpoint decides where a
   * restart reads from, and the next run moves the consumer on.
   */
  public synchronized Optional<Long> handOver(StreamOffsets durableEnd, long nowMs) {
    if (stopped) {
      return Optional.empty();
    }
    if (failure != null) {
      throw failure;
    }
    waiting = durableEnd;
    if (busy) {
      return Optional.empty();
    }
    busy = true;
    return Optional.of(nowMs + quietMs);
  }

  /**
   * Moves the consumer to each end handed over until none waits (the advance's thread). A failure
   * is kept, what waits is dropped, and the failure is returned for the caller to log.
   */
  public Optional<RuntimeException> drain() {
    while (true) {
      StreamOffsets end;
      synchronized (this) {
        end = waiting;
        waiting = null;
        if (end == null) {
          busy = false;
          notifyAll();
          return Optional.empty();
        }
      }
      try {
        advancer.accept(end);
      } catch (RuntimeException e) {
        synchronized (this) {
          failure = e;
          waiting = null;
          busy = false;
          notifyAll();
        }
        return Optional.of(e);
      }
    }
  }

  /**
   * The source stops: no end is taken any more. Returns whether a move is pending, which the caller
   * then runs at once ({@link #drain}): the query is stopping.
   */
  public synchronized boolean stop() {
    stopped = true;
    return busy;
  }

  /** True once {@link #stop} was called: ends handed over are dropped. */
  public synchronized boolean stopped() {
    return stopped;
  }

  /** True when no end waits or is being reached. */
  public synchronized boolean idle() {
    return !busy;
  }

  @Override
  public String toString() {
    return "DeferredConsumerAdvance[" + consumer + "]";
  }

  /** The failure of the last advance, if it failed. */
  public synchronized Optional<RuntimeException> failure() {
    return Optional.ofNullable(failure);
  }
}
