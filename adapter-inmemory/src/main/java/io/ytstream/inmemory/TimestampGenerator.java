package io.ytstream.inmemory;

import io.ytstream.core.model.YtTimestamps;
import io.ytstream.ports.TimeSource;

/**
 * Monotonic transaction timestamps, standing in for YTsaurus' timestamp provider, in the server's
 * hybrid form: Unix seconds above a 30-bit counter ({@link YtTimestamps}). A timestamp is {@code
 * max(previous + 1, lowest timestamp of the clock's second)}: strictly increasing even when the
 * clock stands still, and deterministic under a {@link ManualClock}. A commit timestamp is what an
 * ordered table's {@code $timestamp} holds, as on a tablet node ({@code
 * yt/yt/server/node/tablet_node/ordered_dynamic_store.cpp}, {@code WriteRow}). Start and commit
 * timestamps share this sequence, so "committed after I started" is a plain comparison.
 *
 * <p>Not thread-safe on its own; the cluster calls it under its lock.
 */
final class TimestampGenerator {

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
    last = Math.max(last + 1, YtTimestamps.lowestAtEpochMillis(clock.nowMillis()));
    return last;
  }
}
