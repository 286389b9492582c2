package io.ytstream.simulation;

import io.ytstream.application.realtime.DeferredConsumerAdvance;
import io.ytstream.core.model.StreamOffsets;
import java.util.function.Consumer;

/**
 * The thread of the shipped {@link DeferredConsumerAdvance} on the simulated clock, as
 * adapter-spark's {@code BackgroundConsumerAdvance} schedules it: the move runs when the time the
 * hand-over named has come, and at once when the source stops. A driver that dies loses what was
 * waiting.
 */
final class SimBackgroundAdvance {

  private final DeferredConsumerAdvance advance;
  private long dueAtMs;

  SimBackgroundAdvance(Consumer<StreamOffsets> advancer) {
    this.advance =
        new DeferredConsumerAdvance(
            advancer, Workload.CONSUMER.toString(), DeferredConsumerAdvance.QUIET_MS);
  }

  /** Hands over a durable end; throws the failure of an earlier advance, if any. */
  void advanceTo(StreamOffsets durableEnd, long nowMs) {
    advance.handOver(durableEnd, nowMs).ifPresent(due -> dueAtMs = due);
  }

  /** The advance's thread: moves once the time it was scheduled for has come. */
  void tick(long nowMs) {
    if (!advance.idle() && nowMs >= dueAtMs) {
      advance.drain();
    }
  }

  /** The source stops: what waits moves now; a failure is left (the query is stopping). */
  void finish() {
    if (advance.stop()) {
      advance.drain();
    }
  }

  boolean idle() {
    return advance.idle();
  }
}
