package io.ytstream.spark.sink;

import io.ytstream.application.MasterTransactionLease;
import io.ytstream.application.TransactionLease;
import io.ytstream.ports.MasterTransaction;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's thread that renews the open static table batch's master transaction ({@link
 * MasterTransactionLease}) every third of its timeout; a daemon, so it never holds the JVM.
 */
final class MasterTransactionPinger {

  private static final Logger LOG = LoggerFactory.getLogger(MasterTransactionPinger.class);

  private final Duration timeout;
  private ScheduledExecutorService thread;
  private ScheduledFuture<?> pinging;

  MasterTransactionPinger(Duration timeout) {
    this.timeout = timeout;
  }

  /** Starts renewing {@code tx} (the caller stops the previous one first). */
  synchronized void start(MasterTransaction tx) {
    if (thread == null) {
      thread =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "ytstream-master-transaction-pinger");
                t.setDaemon(true);
                return t;
              });
    }
    MasterTransactionLease lease = new MasterTransactionLease(tx);
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

  synchronized void stop() {
    if (pinging != null) {
      pinging.cancel(false);
      pinging = null;
    }
  }
}
