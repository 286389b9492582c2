package io.ytstream.ytsaurus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.commit.CommitErrorClassifier;
import io.ytstream.core.commit.CommitOutcome;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.ports.Row;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.contract.Columns;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Heavy requests over three emulated proxies, one of them banned (503, 2100) or overloaded (503,
 * 108) while the client runs ({@code yt/yt/server/http_proxy/context.cpp}): spread at random over
 * the first proxies as the Python client's {@code HeavyProxyProvider} does, a refusing proxy banned
 * locally and left for another, and a transaction on a banned proxy failing at once, not after
 * waiting out {@code Retry-After: 60}.
 */
class HeavyProxyFailoverTest {

  private static final YPath TABLE = YPath.of("//home/out");
  private static final int READS = 30;

  private YtEmulator emulator;
  private final List<YtsaurusCluster> clusters = new ArrayList<>();
  private final List<RequestLogger.LoggedRequest> log = new ArrayList<>();
  private YtsaurusCluster cluster;

  /**
   * The cluster the tests use has read {@code /hosts} (while every proxy served) before a test bans
   * one: a proxy banned later stays in its list for a minute, as on a real cluster, where a ban
   * reaches {@code /hosts} only with the coordinator's next update.
   */
  @BeforeEach
  void start() {
    emulator = YtEmulator.start(EmulatorOptions.defaults().withProxyCount(3));
    cluster = connect(new ProxyFailover(Duration.ofMinutes(2), OptionalLong.of(7)));
    new HttpClusterAdmin(cluster)
        .createSortedTable(TABLE, List.of(Columns.key("k", "int64"), Columns.value("v", "string")));
    cluster.outputTables().upsert(TABLE, List.of(Row.of("k", 1L, "v", "x")));
    emulator.requestCounts().reset();
  }

  @AfterEach
  void stop() {
    clusters.forEach(YtsaurusCluster::close);
    emulator.close();
  }

  private YtsaurusCluster connect(ProxyFailover failover) {
    YtsaurusCluster connected =
        YtsaurusCluster.connect(
            YtsaurusClientConfig.of(emulator.url(), Optional.empty())
                .withProxyFailover(failover)
                .withRequestLogger(
                    r -> {
                      synchronized (log) {
                        log.add(r);
                      }
                    }));
    clusters.add(connected);
    return connected;
  }

  private void read(YtsaurusCluster on, int times) {
    for (int i = 0; i < times; i++) {
      assertEquals(1, on.outputTables().readAll(TABLE).size());
    }
  }

  private long selects(int proxy) {
    return emulator.requestCounts().count(proxy, "select_rows");
  }

  private List<String> selectProxies() {
    List<String> proxies = new ArrayList<>();
    synchronized (log) {
      for (RequestLogger.LoggedRequest r : log) {
        if (r.command().equals("select_rows")) {
          proxies.add(r.proxy());
        }
      }
    }
    return proxies;
  }

  private static String proxyOf(TabletTransaction tx) {
    return tx.id().value().substring(tx.id().value().indexOf('@') + 1);
  }

  @Test
  void heavyReadsSpreadOverTheProxiesInAnOrderTheSeedRepeats() {
    synchronized (log) {
      log.clear();
    }
    read(connect(new ProxyFailover(Duration.ofMinutes(2), OptionalLong.of(11))), READS);

    for (int proxy = 0; proxy < 3; proxy++) {
      assertTrue(selects(proxy) > 0, "proxy " + proxy + ": " + emulator.requestCounts());
    }
    List<String> first = selectProxies();
    synchronized (log) {
      log.clear();
    }
    read(connect(new ProxyFailover(Duration.ofMinutes(2), OptionalLong.of(11))), READS);
    assertEquals(first, selectProxies(), "the same seed, the same choices");
  }

  @Test
  void aBannedProxyIsLeftForAnotherOnceAndThenSkipped() {
    emulator.banProxy(1);

    read(cluster, READS);

    assertEquals(1, emulator.refusedRequests(1), "banned locally after its first refusal");
    assertEquals(0, selects(1));
    assertEquals(READS, selects(0) + selects(2));
    assertTrue(selects(0) > 0 && selects(2) > 0, emulator.requestCounts().toString());
  }

  @Test
  void anOverloadedProxyIsLeftForAnotherOnceAndThenSkipped() {
    emulator.overloadProxy(2);

    read(cluster, READS);

    assertEquals(1, emulator.refusedRequests(2));
    assertEquals(0, selects(2));
    assertEquals(READS, selects(0) + selects(1));
  }

  @Test
  void aProxyIsTriedAgainOnceItsLocalBanEnds() throws InterruptedException {
    YtsaurusCluster shortBans =
        connect(new ProxyFailover(Duration.ofMillis(200), OptionalLong.of(3)));
    read(shortBans, 1);
    emulator.requestCounts().reset();
    emulator.banProxy(1);
    read(shortBans, READS);
    // Not exactly one: a slow machine may take longer than the ban for these reads.
    assertTrue(emulator.refusedRequests(1) >= 1, "the client met the ban");
    emulator.restoreProxy(1);

    Thread.sleep(300);
    read(shortBans, READS);

    assertTrue(selects(1) > 0, "served again after the ban: " + emulator.requestCounts());
  }

  @Test
  void newTransactionsStartOnTheProxiesThatServe() {
    emulator.banProxy(1);
    String banned = emulator.proxyUrls().get(1);

    for (long k = 0; k < 6; k++) {
      TabletTransaction tx = cluster.transactions().start(Duration.ofSeconds(30));
      assertFalse(proxyOf(tx).equals(banned), tx.id().value());
      tx.insertRows(TABLE, List.of(Row.of("k", 10 + k, "v", "t")));
      tx.commit();
    }
    assertTrue(emulator.refusedRequests(1) <= 1, "at most one refusal before the local ban");
    assertEquals(7, cluster.outputTables().readAll(TABLE).size());
  }

  @Test
  void aTransactionOnABannedProxyFailsAtOnceAndItsCommitIsRetriedLater() {
    TabletTransaction tx = cluster.transactions().start(Duration.ofSeconds(30));
    int owner = emulator.proxyUrls().indexOf(proxyOf(tx));
    tx.insertRows(TABLE, List.of(Row.of("k", 2L, "v", "lost")));
    emulator.banProxy(owner);

    long start = System.nanoTime();
    YtHttpException insert =
        assertThrows(
            YtHttpException.class,
            () -> tx.insertRows(TABLE, List.of(Row.of("k", 3L, "v", "lost"))));
    YtHttpException commit = assertThrows(YtHttpException.class, tx::commit);

    assertTrue((System.nanoTime() - start) / 1_000_000 < 5_000, "Retry-After: 60 not waited");
    assertTrue(insert.hasCode(2100), insert.toString());
    assertTrue(insert.getMessage().contains("cannot move: it is lost"), insert.getMessage());
    assertEquals(CommitOutcome.RETRY_LATER, CommitErrorClassifier.classify(commit));
    // The batch is redone in a new transaction, which starts on a proxy that serves.
    TabletTransaction again = cluster.transactions().start(Duration.ofSeconds(30));
    assertFalse(proxyOf(again).equals(emulator.proxyUrls().get(owner)));
    again.insertRows(TABLE, List.of(Row.of("k", 2L, "v", "again")));
    again.commit();
    assertEquals(2, cluster.outputTables().readAll(TABLE).size());
  }
}
