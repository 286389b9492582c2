package io.ytstream.spark.realtime;

import io.ytstream.application.AdvanceConsumer;
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
 * Moves the consumer of a real-time query on a thread of its own, {@link #QUIET_MS} after the end
 * is handed over, so that the requests it takes (a read of the consumer and one fenced advance per
 * partition) are neither in line nor beside the gap between two real-time batches, when no task
 * reads: by then the next batch's tasks run (with the cluster's proxy or the emulator on the same
 * machine, requests beside the gap took CPU from Spark's planning of the next batch). Each end
 * handed over is durable (its {@code commits/N} entry is written), so the commit-lag rule holds as
 * with {@link AdvanceConsumer} called in line; an end handed over while an earlier one is still
 * waiting replaces it (ends only grow, and moving straight to the later one skips nothing). A
 * failure is kept and thrown by the next {@link #advanceTo}, failing the query one boundary later
 * than in line; {@link #finish} waits for the last end on stop.
 */
public final class BackgroundConsumerAdvance {

  private static final Logger LOG = LoggerFactory.getLogger(BackgroundConsumerAdvance.class);

  /**
   * How long after a hand-over the consumer moves: well past the gap (tens of milliseconds), well
   * within the shortest real-time batch (5 s).
   */
  public static final long QUIET_MS = 500;

  private final Consumer<StreamOffsets> advancer;
  private final ConsumerId consumer;
  private final long quietMs;
  private final ScheduledExecutorService thread;
  private ScheduledFuture<?> scheduled;
  private StreamOffsets waiting;
  private boolean busy;
  private RuntimeException failure;
  private boolean stopped;

  public BackgroundConsumerAdvance(
      Consumer<StreamOffsets> advancer, ConsumerId consumer, long quietMs) {
    this.advancer = advancer;
    this.consumer = consumer;
    this.quietMs = quietMs;
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
  public synchronized void advanceTo(StreamOffsets durableEnd) {
    if (stopped) {
      throw new IllegalStateException(
          "the real-time source of consumer " + consumer + " is stopped");
    }
    throwFailure();
    waiting = durableEnd;
    if (!busy) {
      busy = true;
      scheduled = thread.schedule(this::drain, quietMs, TimeUnit.MILLISECONDS);
    }
  }

  private void drain() {
    while (true) {
      StreamOffsets end;
      synchronized (this) {
        end = waiting;
        waiting = null;
        if (end == null) {
          busy = false;
          notifyAll();
          return;
        }
      }
      try {
        advancer.accept(end);
      } catch (RuntimeException e) {
        LOG.error("moving consumer {} to {} failed", consumer, end, e);
        synchronized (this) {
          failure = e;
          waiting = null;
          busy = false;
          notifyAll();
        }
        return;
      }
    }
  }

  /**
   * Waits up to {@code timeoutMs} for the last end handed over to be reached, then stops the
   * thread. A failure or a timeout is logged, not thrown: the query is stopping, and the consumer
   * only lags (the checkpoint decides where a restart reads from; the next run moves it on).
   */
  public void finish(long timeoutMs) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    synchronized (this) {
      stopped = true;
      if (scheduled != null && scheduled.cancel(false)) {
        // Still in its quiet time: move now, the query is stopping.
        thread.execute(this::drain);
      }
      try {
        while (busy) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            LOG.warn(
                "consumer {} was still being moved after {} ms; stopping without waiting (it"
                    + " lags; the next run moves it on)",
                consumer,
                timeoutMs);
            break;
          }
          TimeUnit.NANOSECONDS.timedWait(this, left);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (failure != null) {
        LOG.warn("consumer {} was not moved to the last batch end: {}", consumer, failure);
      }
    }
    thread.shutdownNow();
  }

  /** True when no end is waiting or being reached. */
  public synchronized boolean idle() {
    return !busy;
  }

  private void throwFailure() {
    if (failure != null) {
      throw failure;
    }
  }
}
