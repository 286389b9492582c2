package io.ytstream.simulation;

import io.ytstream.application.TransactionLease;
import io.ytstream.ports.TransactionId;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * The driver's pinger of the open batch transaction, as the Spark adapter's {@code LeasePinger}
 * runs it for both sinks: a lease ({@link TransactionLease} of a tablet transaction, {@link
 * io.ytstream.application.MasterTransactionLease} of a static table batch's) renewed at a fixed
 * rate of {@link TransactionLease#renewalPeriod} from the transaction's start, missed runs caught
 * up one after another (as {@code ScheduledExecutorService.scheduleAtFixedRate} does).
 *
 * <p>The pinger is a thread of the driver's process: it runs while the driver waits on its tasks
 * ({@link SimFault#SLOW_TASK}) and not while the whole driver is paused ({@link
 * SimFault#TRANSACTION_EXPIRY}, a jump of the clock with nothing running). A normal simulated batch
 * ends long before the first run is due, so the pinger calls the cluster only in a slow task.
 */
final class SimTransactionPinger {

  private final TransactionId transaction;
  private final BooleanSupplier renew;
  private final long startedAtMs;
  private final long periodMs;
  private long runs;
  private int failedInARow;
  private int mostFailedInARow;

  /** {@code renew}: the lease's renewal, true when the ping succeeded. */
  SimTransactionPinger(
      TransactionId transaction, BooleanSupplier renew, Duration timeout, long nowMs) {
    this.transaction = transaction;
    this.renew = renew;
    this.startedAtMs = nowMs;
    this.periodMs = TransactionLease.renewalPeriod(timeout).toMillis();
  }

  /** Runs the renewals due up to {@code nowMs}. */
  void runUntil(long nowMs) {
    long due = periodMs <= 0 ? 0 : (nowMs - startedAtMs) / periodMs;
    while (runs < due) {
      runs++;
      if (renew.getAsBoolean()) {
        failedInARow = 0;
      } else {
        mostFailedInARow = Math.max(mostFailedInARow, ++failedInARow);
      }
    }
  }

  TransactionId transaction() {
    return transaction;
  }

  /** The renewals run so far. */
  long runs() {
    return runs;
  }

  long startedAtMs() {
    return startedAtMs;
  }

  /** The longest run of renewals in a row that the cluster refused or did not answer. */
  int mostFailedInARow() {
    return mostFailedInARow;
  }
}
