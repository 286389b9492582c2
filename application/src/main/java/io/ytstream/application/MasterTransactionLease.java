package io.ytstream.application;

import io.ytstream.ports.MasterTransaction;

/**
 * The lease of a master transaction this side started (a static table batch's), renewed as {@link
 * TransactionLease} renews a tablet transaction's: every {@link TransactionLease#renewalPeriod} of
 * its timeout, by the side that started it only.
 */
@DrivingUseCase
public final class MasterTransactionLease {

  private final MasterTransaction transaction;

  public MasterTransactionLease(MasterTransaction transaction) {
    this.transaction = transaction;
  }

  /**
   * Renews the lease once. A failed ping is not thrown: the transaction's next request (an append,
   * the commit) reports an expired transaction with its own error.
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

  public MasterTransaction transaction() {
    return transaction;
  }
}
