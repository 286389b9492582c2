package io.ytstream.spark.sink;

import io.ytstream.application.TransactionLease;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's thread that renews the open batch's transaction lease (a tablet transaction's {@link
 * TransactionLease}, or a static table batch's master transaction lease) every third of its
 * timeout, one transaction at a time; a daemon, so it never holds the JVM.
 */
final class LeasePinger {

  private static final Logger LOG = LoggerFactory.getLogger(LeasePinger.class);

  private final Duration timeout;
  private final String threadName;
  private ScheduledExecutorService thread;
  private ScheduledFuture<?> pinging;

  LeasePinger(Duration timeout, String threadName) {
    this.timeout = timeout;
    this.threadName = threadName;
  }

  /**
   * Starts renewing the transaction {@code id} with {@code renew}, which answers whether the
   * renewal went through (the caller stops the previous transaction first).
   */
  synchronized void start(Object id, BooleanSupplier renew) {
    if (thread == null) {
      thread =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, threadName);
                t.setDaemon(true);
                return t;
              });
    }
    long period = TransactionLease.renewalPeriod(timeout).toMillis();
    pinging =
        thread.scheduleAtFixedRate(
            () -> {
              if (!renew.getAsBoolean()) {
                LOG.debug("ping of {} failed; its next request will say why", id);
              }
            },
            period,
            period,
            TimeUnit.MILLISECONDS);
  }

  /** Stops renewing the transaction it renews, if any. */
  synchronized void stop() {
    if (pinging != null) {
      pinging.cancel(false);
      pinging = null;
    }
  }
}
