package io.ytstream.simulation;

import io.ytstream.core.model.StreamOffsets;
import java.util.function.Consumer;

/**
 * The real-time consumer advance off the engine's thread, as adapter-spark's {@code
 * BackgroundConsumerAdvance} runs it, on the simulated clock: an end handed over starts the move
 * {@link #QUIET_MS} later, a later end handed over meanwhile replaces the waiting one, a failure is
 * kept and thrown by the next hand-over, and a stopping source moves at once ({@link #finish}). A
 * driver that dies loses what was waiting.
 */
final class SimBackgroundAdvance {

  /** {@code BackgroundConsumerAdvance.QUIET_MS}. */
  static final long QUIET_MS = 500;

  private final Consumer<StreamOffsets> advancer;
  private StreamOffsets waiting;
  private boolean busy;
  private long dueAtMs;
  private RuntimeException failure;
  private boolean stopped;

  SimBackgroundAdvance(Consumer<StreamOffsets> advancer) {
    this.advancer = advancer;
  }

  /** Hands over a durable end; throws the failure of an earlier advance, if any. */
  void advanceTo(StreamOffsets durableEnd, long nowMs) {
    if (stopped) {
      throw new IllegalStateException("the real-time source is stopped");
    }
    if (failure != null) {
      throw failure;
    }
    waiting = durableEnd;
    if (!busy) {
      busy = true;
      dueAtMs = nowMs + QUIET_MS;
    }
  }

  /** The advance's thread: moves once its quiet time has passed. */
  void tick(long nowMs) {
    if (busy && nowMs >= dueAtMs) {
      drain();
    }
  }

  /** The source stops: what waits moves now; a failure is left (the query is stopping). */
  void finish() {
    stopped = true;
    if (busy) {
      drain();
    }
  }

  boolean idle() {
    return !busy;
  }

  private void drain() {
    while (true) {
      StreamOffsets end = waiting;
      waiting = null;
      if (end == null) {
        busy = false;
        return;
      }
      try {
        advancer.accept(end);
      } catch (RuntimeException e) {
        failure = e;
        waiting = null;
        busy = false;
        return;
      }
    }
  }
}
