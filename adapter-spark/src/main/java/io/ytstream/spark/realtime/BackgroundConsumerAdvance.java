package io.ytstream.spark.realtime;

import io.ytstream.application.realtime.DeferredConsumerAdvance;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.StreamOffsets;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread of {@link DeferredConsumerAdvance}, which decides when the consumer of a real-time
 * query moves and to where ({@link #QUIET_MS} after a durable end is handed over, the latest end
 * waiting, a failure thrown by the next hand-over): with the cluster's proxy or the emulator on the
 * same machine, requests beside the gap between two batches took CPU from Spark's planning of the
 * next batch. {@link #finish} waits for the last end on stop.
 */
public final class BackgroundConsumerAdvance {

  private static final Logger LOG = LoggerFactory.getLogger(BackgroundConsumerAdvance.class);

  public static final long QUIET_MS = DeferredConsumerAdvance.QUIET_MS;

  private final DeferredConsumerAdvance advance;
  private final ConsumerId consumer;
  private final ScheduledExecutorService thread;

  /** Guarded by {@link #advance}'s monitor. */
  private ScheduledFuture<?> scheduled;

  public BackgroundConsumerAdvance(
      Consumer<StreamOffsets> advancer, ConsumerId consumer, long quietMs) {
    this.advance = new DeferredConsumerAdvance(advancer, consumer.toString(), quietMs);
    this.consumer = consumer;
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "ytstream-consumer-advance " + consumer);
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Hands over a durable end and returns at once (the move starts {@code quietMs} later); throws
   * the failure of an earlier advance, if any (the query then fails with it).
   */
  public void advanceTo(StreamOffsets durableEnd) {
    synchronized (advance) {
      if (advance.stopped()) {
        LOG.debug(
            "consumer {} stays behind {}: the source is stopped (the next run moves it on)",
            consumer,
            durableEnd);
        return;
      }
      long nowMs = nowMs();
      advance
          .handOver(durableEnd, nowMs)
          .ifPresent(
              dueMs ->
                  scheduled = thread.schedule(this::drain, dueMs - nowMs, TimeUnit.MILLISECONDS));
    }
  }

  private void drain() {
    advance
        .drain()
        .ifPresent(e -> LOG.error("moving consumer {} to a batch end failed", consumer, e));
  }

  /**
   * Waits up to {@code timeoutMs} for the last end handed over to be reached, then stops the
   * thread. A failure or a timeout is logged, not thrown: the query is stopping, and the consumer
   * only lags (the checkpoint decides where a restart reads from; the next run moves it on).
   */
  public void finish(long timeoutMs) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    synchronized (advance) {
      if (advance.stop() && scheduled != null && scheduled.cancel(false)) {
        // Still in its quiet time: move now, the query is stopping.
        thread.execute(this::drain);
      }
      try {
        while (!advance.idle()) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            LOG.warn(
                "consumer {} was still being moved after {} ms; stopping without waiting (it"
                    + " lags; the next run moves it on)",
                consumer,
                timeoutMs);
            break;
          }
          TimeUnit.NANOSECONDS.timedWait(advance, left);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      advance
          .failure()
          .ifPresent(
              f -> LOG.warn("consumer {} was not moved to the last batch end: {}", consumer, f));
    }
    thread.shutdownNow();
  }

  /** True when no end is waiting or being reached. */
  public boolean idle() {
    return advance.idle();
  }

  private static long nowMs() {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
  }
}
