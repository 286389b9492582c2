package io.ytstream.simulation;

import io.ytstream.application.realtime.BoundsReadAhead;
import io.ytstream.core.plan.QueueBounds;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The thread of the shipped {@link BoundsReadAhead} on the simulated clock, as adapter-spark's
 * {@code PrefetchedBounds} schedules it: a read at once, then every {@code REFRESH_MS}.
 */
final class SimPrefetchedBounds {

  private final BoundsReadAhead bounds;
  private long nextAtMs = Long.MIN_VALUE;

  SimPrefetchedBounds(Supplier<QueueBounds> read) {
    this.bounds = new BoundsReadAhead(read);
  }

  /** The reading thread: reads when its time has come. */
  void tick(long nowMs) {
    if (nowMs < nextAtMs) {
      return;
    }
    nextAtMs = nowMs + BoundsReadAhead.REFRESH_MS;
    var unused = bounds.refresh(nowMs); // a failure is kept quiet, as shipped
  }

  Optional<QueueBounds> fresh(long nowMs) {
    return bounds.fresh(nowMs);
  }
}
