package io.ytstream.simulation;

import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.TransactionId;
import java.time.Duration;

/**
 * {@link SimFault#SLOW_TASK}: a task of a transactional or static table batch runs for longer than
 * the batch transaction's timeout (a slow executor, a long pull) while the driver lives. The clock
 * moves in slices, and between them the driver's pinger runs what is due; the batch transaction
 * must still be open at the end, or the batch, run again, would expire again and the query never
 * get past it.
 */
final class SlowTask {

  private SlowTask() {}

  static void run(SimContext ctx, SimTransactionPinger pinger, Duration timeout, int arg) {
    TransactionId tx = pinger.transaction();
    boolean liveBefore = live(ctx.cluster, tx);
    long startMs = ctx.cluster.ports().time().nowMillis();
    // 1.5 to 2.5 timeouts, in slices of 0.5 to 2.75 seconds.
    long untilMs = startMs + timeout.toMillis() * (24 + arg) / 16;
    long sliceMs = 500 + arg * 150L;
    ctx.trace("fault: a task runs " + (untilMs - startMs) + " ms; the driver pings " + tx);
    long nowMs = startMs;
    while (nowMs < untilMs) {
      ctx.cluster.advanceClock(Math.min(sliceMs, untilMs - nowMs));
      nowMs = ctx.cluster.ports().time().nowMillis();
      pinger.runUntil(nowMs);
    }
    ctx.verifier.onLeaseHeld(
        tx,
        liveBefore,
        live(ctx.cluster, tx),
        pinger.mostFailedInARow(),
        pinger.runs(),
        nowMs - pinger.startedAtMs(),
        timeout);
  }

  /**
   * Whether the cluster still holds {@code tx} open. The emulator notices a lapsed lease on use or
   * on a sweep, and starting a transaction sweeps: a probe of the harness's own, outside the
   * schedule's faults, started and aborted at once.
   */
  private static boolean live(SimCluster cluster, TransactionId tx) {
    TabletTransaction probe = cluster.ports().transactions().start(Duration.ofSeconds(1));
    probe.abort();
    return cluster.transactionLive(tx);
  }
}
