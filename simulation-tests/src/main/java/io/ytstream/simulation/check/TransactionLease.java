package io.ytstream.simulation.check;

import java.time.Duration;

/**
 * The batch transaction's lease: it expired while its driver lived and renewed it (no two renewals
 * in a row lost), or the driver renewed it more often than a third of its timeout (at least 100
 * ms), a flood of pings on the proxy.
 */
public final class TransactionLease {

  public static final Property PROPERTY =
      new Property("TransactionLease", "lease lapsed under a live owner, or renewed too often");

  private TransactionLease() {}

  /**
   * A slow task kept the driver waiting {@code elapsedMs} since {@code tx} opened, with its pinger
   * running {@code renewals} times.
   */
  public static void held(
      Violations out,
      Object tx,
      boolean liveBefore,
      boolean liveAfter,
      int mostFailedInARow,
      long renewals,
      long elapsedMs,
      Duration timeout) {
    if (liveBefore && !liveAfter && mostFailedInARow < 2) {
      out.add(
          PROPERTY,
          tx
              + " expired while its driver lived: "
              + renewals
              + " renewals in "
              + elapsedMs
              + " ms, timeout "
              + timeout.toMillis()
              + " ms");
    }
    long period = Math.max(timeout.toMillis() / 3, 100);
    if (renewals > elapsedMs / period + 1) {
      out.add(
          PROPERTY,
          tx
              + " renewed "
              + renewals
              + " times in "
              + elapsedMs
              + " ms, every "
              + period
              + " ms due");
    }
  }
}
