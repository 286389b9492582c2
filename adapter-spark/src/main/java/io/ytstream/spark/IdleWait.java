package io.ytstream.spark;

import java.util.concurrent.locks.LockSupport;

/**
 * How a real-time reader waits when its partition has no new rows: a short pause that doubles on
 * every empty pull, from {@link #FIRST_NANOS} up to {@link #MAX_NANOS}, and starts short again as
 * soon as rows come. Short first pauses keep latency low right after a burst; the cap keeps an idle
 * partition at a few hundred pulls per second instead of a busy spin.
 */
final class IdleWait {

  static final long FIRST_NANOS = 100_000L;
  static final long MAX_NANOS = 4_000_000L;

  private long next = FIRST_NANOS;

  /** Rows came: the next wait starts short again. */
  void reset() {
    next = FIRST_NANOS;
  }

  /** The pause the next {@link #pause} would take, in nanoseconds. */
  long nextNanos() {
    return next;
  }

  /** Pauses for the current wait, but not past {@code deadlineMs}; then doubles the wait. */
  void pause(long nowMs, long deadlineMs) {
    long left = (deadlineMs - nowMs) * 1_000_000L;
    long nanos = Math.min(next, Math.max(0, left));
    if (nanos > 0) {
      LockSupport.parkNanos(nanos);
    }
    next = Math.min(MAX_NANOS, next * 2);
  }
}
