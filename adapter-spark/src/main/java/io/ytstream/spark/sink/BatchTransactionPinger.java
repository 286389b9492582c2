package io.ytstream.spark.sink;

import io.ytstream.application.TransactionLease;
import io.ytstream.ports.TabletTransaction;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's thread that renews the open batch transaction's lease ({@link TransactionLease})
 * every third of its timeout, one transaction at a time; a daemon, so it never holds the JVM.
 */
final class BatchTransactionPinger {

  private static final Logger LOG = LoggerFactory.getLogger(BatchTransactionPinger.class);

  private final Duration timeout;
  private ScheduledExecutorService thread;
  private ScheduledFuture<?> pinging;

  BatchTransactionPinger(Duration timeout) {
    this.timeout = timeout;
  }

  /** Starts renewing {@code tx} (the caller stops the previous one first). */
  synchronized void start(TabletTransaction tx) {
    if (thread == null) {
      thread =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "ytstream-transaction-pinger");
                t.setDaemon(true);
                return t;
              });
    }
    TransactionLease lease = new TransactionLease(tx);
    long period = TransactionLease.renewalPeriod(timeout).toMillis();
    pinging =
        thread.scheduleAtFixedRate(
            () -> {
              if (!lease.renew()) {
                LOG.debug("ping of {} failed; its next request will say why", tx.id());
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
