package io.ytstream.spark.writers;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A writer buffer's background flush: a daemon thread that runs it every interval, so rows do not
 * wait for the buffer to fill. The flush keeps its own failure; the future is only there to be
 * cancelled.
 */
final class FlushTimer implements AutoCloseable {

  private final ScheduledExecutorService executor;
  private final ScheduledFuture<?> scheduled;

  FlushTimer(long intervalMs, String threadName, Runnable flush) {
    executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, threadName);
              t.setDaemon(true);
              return t;
            });
    scheduled =
        executor.scheduleWithFixedDelay(flush, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
  }

  /** Stops the flushes, waiting a little for one that is running. */
  @Override
  public void close() {
    scheduled.cancel(false);
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
