package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.MasterTransactionLease;
import io.ytstream.application.TransactionLease;
import io.ytstream.ports.MasterTransaction;
import io.ytstream.ports.TabletTransaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link SimFault#SLOW_TASK}: a batch slower than its transaction's timeout commits because the
 * driver's pinger renews the lease ({@link SimTransactionPinger} over the application's {@code
 * TransactionLease}, or {@code MasterTransactionLease} for a static table batch); without the
 * renewals the emulated cluster expires the transaction.
 */
class SlowTaskLeaseTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @Test
  void thePingerKeepsATransactionOpenPastItsTimeout() {
    InMemorySimCluster cluster = new InMemorySimCluster();
    TabletTransaction tx = cluster.ports().transactions().start(TIMEOUT);
    SimTransactionPinger pinger =
        new SimTransactionPinger(
            tx.id(), new TransactionLease(tx)::renew, TIMEOUT, cluster.ports().time().nowMillis());
    for (int s = 0; s < 60; s++) {
      cluster.advanceClock(1_000);
      pinger.runUntil(cluster.ports().time().nowMillis());
    }
    cluster.ports().transactions().start(Duration.ofSeconds(1)).abort(); // sweeps lapsed leases
    assertTrue(cluster.transactionLive(tx.id()), "renewed every 10 s, open after 60 s");
    assertEquals(6, pinger.runs(), "one renewal per third of the timeout");
    assertEquals(0, pinger.mostFailedInARow());
  }

  @Test
  void withoutRenewalsTheSameTransactionExpires() {
    InMemorySimCluster cluster = new InMemorySimCluster();
    TabletTransaction tx = cluster.ports().transactions().start(TIMEOUT);
    cluster.advanceClock(TIMEOUT.toMillis());
    cluster.ports().transactions().start(Duration.ofSeconds(1)).abort();
    assertFalse(cluster.transactionLive(tx.id()));
  }

  @Test
  void aStaticTableBatchsMasterTransactionLivesOnlyWhileRenewed() {
    InMemorySimCluster cluster = new InMemorySimCluster();
    MasterTransaction renewed = cluster.ports().staticTableAppends().start(TIMEOUT);
    MasterTransaction left = cluster.ports().staticTableAppends().start(TIMEOUT);
    SimTransactionPinger pinger =
        new SimTransactionPinger(
            renewed.id(),
            new MasterTransactionLease(renewed)::renew,
            TIMEOUT,
            cluster.ports().time().nowMillis());
    for (int s = 0; s < 60; s++) {
      cluster.advanceClock(1_000);
      pinger.runUntil(cluster.ports().time().nowMillis());
    }
    assertTrue(cluster.transactionLive(renewed.id()), "renewed every 10 s, open after 60 s");
    assertFalse(cluster.transactionLive(left.id()), "not renewed: expired after 30 s");
  }

  @ParameterizedTest
  @EnumSource(
      value = SimMode.class,
      names = {"TRANSACTIONAL", "STATIC_TABLE"})
  void seedsWithASlowTaskKeepTheInvariants(SimMode mode) {
    SimulationRun.Options options = new SimulationRun.Options(mode, 0, Mutant.NONE, 30, false);
    int slow = 0;
    List<String> failures = new ArrayList<>();
    for (long seed = 1; seed <= 60; seed++) {
      RunResult r = SimulationRun.run(seed, options);
      if (r.fired(SimFault.SLOW_TASK) > 0) {
        slow++;
        if (r.failed()) {
          failures.add("seed " + seed + " " + r.violations());
        }
      }
    }
    assertEquals(List.of(), failures);
    assertTrue(slow >= 8, "seeds that ran a slow task: " + slow);
  }
}
