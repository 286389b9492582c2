package io.ytstream.ports;

import java.time.Duration;

/**
 * Starts tablet transactions, and attaches to one by id (executors write into the driver's batch
 * transaction; the id travels in the write plan).
 */
public interface TabletTransactions {

  TabletTransaction start(Duration timeout);

  /** Attaches to a live transaction; fails with 11000 when it is unknown or expired. */
  TabletTransaction attach(TransactionId id);
}
