package io.ytstream.simulation;

import io.ytstream.core.plan.QueueBounds;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The queue's bounds read ahead for real-time boundaries, as adapter-spark's {@code
 * PrefetchedBounds} reads them, on the simulated clock: at once, then every {@link #REFRESH_MS}; a
 * failed read keeps the last bounds, and bounds older than {@link #MAX_AGE_MS} are not offered.
 */
final class SimPrefetchedBounds {

  /** {@code PrefetchedBounds.REFRESH_MS} and {@code MAX_AGE_MS}. */
  static final long REFRESH_MS = 1_000;

  static final long MAX_AGE_MS = 5_000;

  private final Supplier<QueueBounds> read;
  private QueueBounds last;
  private long atMs;
  private long nextAtMs = Long.MIN_VALUE;

  SimPrefetchedBounds(Supplier<QueueBounds> read) {
    this.read = read;
  }

  /** The reading thread: reads when its time has come. */
  void tick(long nowMs) {
    if (nowMs < nextAtMs) {
      return;
    }
    nextAtMs = nowMs + REFRESH_MS;
    try {
      last = read.get();
      atMs = nowMs;
    } catch (RuntimeException e) {
      // Kept quiet, as shipped: a boundary that finds them too old reads in line.
    }
  }

  Optional<QueueBounds> fresh(long nowMs) {
    if (last == null || nowMs - atMs >= MAX_AGE_MS) {
      return Optional.empty();
    }
    return Optional.of(last);
  }
}
