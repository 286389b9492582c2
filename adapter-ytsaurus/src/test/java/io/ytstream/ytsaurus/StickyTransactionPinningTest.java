package io.ytstream.ytsaurus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.ports.Row;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.TransactionId;
import io.ytstream.ports.contract.Columns;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Tablet transactions are pinned to one proxy from {@code /hosts}; the emulator's proxies keep
 * separate sticky pools, so a request that strayed would fail with 11000.
 */
class StickyTransactionPinningTest {

  private YtEmulator emulator;
  private final List<RequestLogger.LoggedRequest> log = new ArrayList<>();
  private YtsaurusCluster cluster;
  private final YPath table = YPath.of("//home/out");

  @BeforeEach
  void start() {
    emulator = YtEmulator.start(EmulatorOptions.defaults().withProxyCount(3));
    cluster =
        YtsaurusCluster.connect(
            YtsaurusClientConfig.of(emulator.url(), Optional.empty())
                .withRequestLogger(
                    r -> {
                      synchronized (log) {
                        log.add(r);
                      }
                    }));
    new HttpClusterAdmin(cluster)
        .createSortedTable(table, List.of(Columns.key("k", "int64"), Columns.value("v", "string")));
  }

  @AfterEach
  void stop() {
    cluster.close();
    emulator.close();
  }

  private Set<String> proxiesUsedBy(String transactionId) {
    Set<String> proxies = new LinkedHashSet<>();
    synchronized (log) {
      for (RequestLogger.LoggedRequest r : log) {
        if (r.parameters().contains(transactionId)) {
          proxies.add(r.proxy());
        }
      }
    }
    return proxies;
  }

  @Test
  void everyRequestOfATransactionGoesToTheProxyThatStartedIt() {
    List<String> pinned = new ArrayList<>();
    for (long k = 0; k < 3; k++) {
      TabletTransaction tx = cluster.transactions().start(Duration.ofSeconds(30));
      tx.insertRows(table, List.of(Row.of("k", k, "v", "x")));
      tx.ping();
      tx.commit();
      String raw = tx.id().value().substring(0, tx.id().value().indexOf('@'));
      Set<String> used = proxiesUsedBy(raw);
      assertEquals(1, used.size(), "one proxy per transaction: " + used);
      pinned.add(used.iterator().next());
      assertTrue(tx.id().value().endsWith("@" + pinned.get(pinned.size() - 1)), tx.id().value());
    }
    assertEquals(3, new LinkedHashSet<>(pinned).size(), "transactions spread over /hosts");
    assertEquals(3, cluster.outputTables().readAll(table).size());
  }

  @Test
  void anExecutorAttachingByIdReachesTheSameProxyFromAnotherConnection() {
    TabletTransaction driver = cluster.transactions().start(Duration.ofSeconds(30));
    try (YtsaurusCluster executorSide =
        YtsaurusCluster.connect(YtsaurusClientConfig.of(emulator.url(), Optional.empty()))) {
      TabletTransaction executor = executorSide.transactions().attach(driver.id());
      executor.insertRows(table, List.of(Row.of("k", 7L, "v", "from-executor")));
    }
    driver.commit();

    assertEquals(
        List.of(Row.of("k", 7L, "v", "from-executor")), cluster.outputTables().readAll(table));
  }

  @Test
  void withoutPinningTheOtherProxiesDoNotKnowTheTransaction() {
    TabletTransaction tx = cluster.transactions().start(Duration.ofSeconds(30));
    String raw = tx.id().value().substring(0, tx.id().value().indexOf('@'));
    String owner = tx.id().value().substring(tx.id().value().indexOf('@') + 1);
    int strays = 0;
    for (String other : emulator.proxyUrls()) {
      if (other.equals(owner)) {
        continue;
      }
      strays++;
      YtException error =
          org.junit.jupiter.api.Assertions.assertThrows(
              YtException.class,
              () -> cluster.transactions().attach(new TransactionId(raw + "@" + other)));
      assertTrue(error.hasCode(YtErrorCode.NO_SUCH_TRANSACTION), error.toString());
      assertTrue(error.getMessage().contains("Sticky transaction"), error.getMessage());
    }
    assertEquals(2, strays);
    assertNotEquals(null, cluster.transactions().attach(tx.id()));
    tx.abort();
  }
}
