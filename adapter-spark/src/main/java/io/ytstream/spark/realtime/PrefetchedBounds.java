package io.ytstream.spark.realtime;

import io.ytstream.application.realtime.BoundsReadAhead;
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
 * The thread of {@link BoundsReadAhead}: the queue's bounds read every {@link #REFRESH_MS}, so that
 * a Real-time Mode boundary plans the next batch without a request in line (on a remote cluster,
 * one round trip less between the old tasks' end and the new tasks' first row).
 */
public final class PrefetchedBounds implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(PrefetchedBounds.class);

  public static final long REFRESH_MS = BoundsReadAhead.REFRESH_MS;
  static final long MAX_AGE_MS = BoundsReadAhead.MAX_AGE_MS;

  private final BoundsReadAhead bounds;
  private final LongSupplier clockMs;
  private final ScheduledExecutorService thread;

  private PrefetchedBounds(Supplier<QueueBounds> read, LongSupplier clockMs, String name) {
    this.bounds = new BoundsReadAhead(read);
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
    // Kept quiet: the boundary that finds the bounds too old reads in line and fails with it.
    bounds
        .refresh(clockMs.getAsLong())
        .ifPresent(e -> LOG.debug("reading the queue's bounds in the background failed", e));
  }

  /** The last bounds read, unless they are older than {@link #MAX_AGE_MS} (or none was read). */
  public Optional<QueueBounds> fresh() {
    return bounds.fresh(clockMs.getAsLong());
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
