package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.TabletTransaction;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The lease's one owner: the in-memory cluster, like the real one, never renews a transaction by
 * itself, so a transaction lives past its timeout only while its starter pings it at the renewal
 * period.
 */
class TransactionLeaseTest {

  private static final YPath OUT = YPath.of("//out");
  private static final Duration TIMEOUT = Duration.ofSeconds(3);

  private final ManualClock clock = new ManualClock();
  private final InMemoryCluster cluster = new InMemoryCluster("primary", clock);

  TransactionLeaseTest() {
    cluster.createOrderedTable(OUT, List.of(new Column("v", "int64", false, false)), 1);
  }

  @Test
  void theRenewalPeriodIsAThirdOfTheTimeoutAndNeverTiny() {
    assertEquals(Duration.ofSeconds(20), TransactionLease.renewalPeriod(Duration.ofSeconds(60)));
    assertEquals(
        TransactionLease.SHORTEST_PERIOD, TransactionLease.renewalPeriod(Duration.ofMillis(30)));
  }

  @Test
  void aTransactionItsOwnerRenewsOutlivesItsTimeout() {
    TabletTransaction tx = cluster.transactions().start(TIMEOUT);
    TransactionLease lease = new TransactionLease(tx);
    Duration period = TransactionLease.renewalPeriod(TIMEOUT);
    for (Duration lived = Duration.ZERO;
        lived.compareTo(TIMEOUT.multipliedBy(4)) < 0;
        lived = lived.plus(period)) {
      clock.advance(period);
      assertTrue(lease.renew(), "renewed after " + lived.plus(period));
    }

    tx.insertRows(OUT, List.of(Row.of("v", 1L)));
    tx.commit();

    assertEquals(1, cluster.outputTables().readAll(OUT).size());
  }

  @Test
  void aTransactionNobodyRenewsExpires() {
    TabletTransaction tx = cluster.transactions().start(TIMEOUT);
    clock.advance(TIMEOUT.plusMillis(1));

    assertFalse(new TransactionLease(tx).renew(), "too late to renew");
    YtException e =
        assertThrows(YtException.class, () -> tx.insertRows(OUT, List.of(Row.of("v", 1L))));
    assertTrue(e.hasCode(YtErrorCode.NO_SUCH_TRANSACTION), e.toString());
  }

  @Test
  void aFailedPingIsReportedNotThrown() {
    TabletTransaction tx = cluster.transactions().start(TIMEOUT);
    cluster.faults().failNext(ClusterOperation.PING, YtErrorCode.HTTP_SERVICE_UNAVAILABLE);
    TransactionLease lease = new TransactionLease(tx);

    assertFalse(lease.renew());
    assertTrue(lease.renew(), "the next ping renews");
  }
}
