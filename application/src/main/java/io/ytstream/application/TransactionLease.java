package io.ytstream.application;

import io.ytstream.ports.TabletTransaction;
import java.time.Duration;

/**
 * The lease of a transaction this side started, which only this side renews ({@link
 * io.ytstream.ports.TabletTransactions}): a ping every {@link #renewalPeriod} of the timeout, so
 * two pings can be lost before the transaction expires. In Spark the driver that opens a batch
 * transaction owns it; executors attach to it and never ping.
 */
@DrivingUseCase
public final class TransactionLease {

  /** The shortest period, so that a tiny timeout does not turn into a flood of pings. */
  static final Duration SHORTEST_PERIOD = Duration.ofMillis(100);

  private final TabletTransaction transaction;

  public TransactionLease(TabletTransaction transaction) {
    this.transaction = transaction;
  }

  /** How often the owner pings a transaction started with {@code timeout}. */
  public static Duration renewalPeriod(Duration timeout) {
    Duration third = timeout.dividedBy(3);
    return third.compareTo(SHORTEST_PERIOD) < 0 ? SHORTEST_PERIOD : third;
  }

  /**
   * Renews the lease once. A failed ping is not thrown: the transaction's next request (an insert,
   * the commit) reports an expired transaction with its own error, where the protocol decides.
   *
   * @return whether the ping succeeded
   */
  public boolean renew() {
    try {
      transaction.ping();
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  public TabletTransaction transaction() {
    return transaction;
  }
}
