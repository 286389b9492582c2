package io.ytstream.spark.realtime;

import io.ytstream.core.plan.QueueBounds;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Real-time Mode: the queue's bounds, read every {@link #REFRESH_MS} on a thread of their own, so
 * that a batch boundary plans the next batch without a request in line (on a remote cluster, one
 * round trip less between the old tasks' end and the new tasks' first row). The bounds a boundary
 * uses are then up to a second old: a reshard is noticed up to a second later, rows trimmed
 * meanwhile are found by the task's first pull (reported as data loss, as before), and the rows
 * behind in the query's metrics are counted against bounds newer than the batch's start. A read
 * that fails keeps the last bounds; once they are older than {@link #MAX_AGE_MS}, {@link #fresh} is
 * empty and the caller reads in line, which reports the error.
 */
public final class PrefetchedBounds implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(PrefetchedBounds.class);

  public static final long REFRESH_MS = 1_000;
  static final long MAX_AGE_MS = 5_000;

  private record Read(QueueBounds bounds, long atMs) {}

  private final Supplier<QueueBounds> read;
  private final LongSupplier clockMs;
  private final ScheduledExecutorService thread;
  private volatile Read last;

  private PrefetchedBounds(Supplier<QueueBounds> read, LongSupplier clockMs, String name) {
    this.read = read;
    this.clockMs = clockMs;
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "ytstream-bounds " + name);
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Starts reading at once, then every {@code refreshMs}.
   *
   * @param name what the thread is named after (the consumer)
   */
  public static PrefetchedBounds start(
      Supplier<QueueBounds> read, LongSupplier clockMs, long refreshMs, String name) {
    PrefetchedBounds prefetched = new PrefetchedBounds(read, clockMs, name);
    var unused =
        prefetched.thread.scheduleWithFixedDelay(
            prefetched::refresh, 0, refreshMs, TimeUnit.MILLISECONDS);
    return prefetched;
  }

  private void refresh() {
    long at = clockMs.getAsLong();
    try {
      last = new Read(read.get(), at);
    } catch (RuntimeException e) {
      // Kept quiet: the boundary that finds the bounds too old reads in line and fails with it.
      LOG.debug("reading the queue's bounds in the background failed", e);
    }
  }

  /** The last bounds read, unless they are older than {@link #MAX_AGE_MS} (or none was read). */
  public Optional<QueueBounds> fresh() {
    Read r = last;
    if (r == null || clockMs.getAsLong() - r.atMs() >= MAX_AGE_MS) {
      return Optional.empty();
    }
    return Optional.of(r.bounds());
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
