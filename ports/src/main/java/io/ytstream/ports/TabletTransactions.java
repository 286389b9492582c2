package io.ytstream.ports;

import java.time.Duration;

/**
 * Starts tablet transactions, and attaches to one by id (executors write into the driver's batch
 * transaction; the id travels in the write plan).
 *
 * <p>The lease has one owner: the caller that {@link #start}s a transaction renews it with {@link
 * TabletTransaction#ping} more often than its timeout until it commits or aborts. Adapters do not
 * renew a started transaction on their own, and a caller that {@link #attach}es never renews it. In
 * Spark the driver that opens a batch transaction is its owner and pings it every third of its
 * timeout (the application's {@code TransactionLease}); executors attach and write.
 */
public interface TabletTransactions {

  TabletTransaction start(Duration timeout);

  /** Attaches to a live transaction; fails with 11000 when it is unknown or expired. */
  TabletTransaction attach(TransactionId id);
}
