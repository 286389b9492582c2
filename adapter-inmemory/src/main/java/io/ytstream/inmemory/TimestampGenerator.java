package io.ytstream.inmemory;

import io.ytstream.ports.TimeSource;

/**
 * Monotonic transaction timestamps, standing in for YTsaurus' timestamp provider. A timestamp is
 * {@code max(previous + 1, nowMillis * 1000)}: strictly increasing even when the clock stands
 * still, and deterministic under a {@link ManualClock}. Start and commit timestamps share this
 * sequence, so "committed after I started" is a plain comparison.
 *
 * <p>Not thread-safe on its own; the cluster calls it under its lock.
 */
final class TimestampGenerator {

  private static final long TICKS_PER_MILLI = 1000;

  private final TimeSource clock;
  private long last;

  TimestampGenerator(TimeSource clock) {
    this.clock = clock;
  }

  /** The last timestamp handed out (0 before the first). */
  long last() {
    return last;
  }

  long next() {
    last = Math.max(last + 1, clock.nowMillis() * TICKS_PER_MILLI);
    return last;
  }
}
