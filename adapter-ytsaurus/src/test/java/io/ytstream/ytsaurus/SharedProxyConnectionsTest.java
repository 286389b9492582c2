package io.ytstream.ytsaurus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.ports.Row;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.contract.Columns;
import io.ytstream.ports.spi.ClusterConnectors;
import io.ytstream.ports.spi.ConnectionSettings;
import io.ytstream.ports.spi.YtCluster;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The connector SPI shares one HTTP client, pinger and cluster name per (address, settings) per
 * JVM, counted by reference; each handle keeps its own transactions and closes on its own.
 */
class SharedProxyConnectionsTest {

  private static final String TOKEN = "shared-secret-token";

  private YtEmulator emulator;

  @BeforeEach
  void start() {
    emulator = YtEmulator.start(EmulatorOptions.defaults().withToken(TOKEN));
  }

  @AfterEach
  void stop() {
    emulator.close();
  }

  private YtsaurusCluster connect(Map<String, String> settings) {
    YtCluster cluster =
        ClusterConnectors.connect(
            emulator.url(), ConnectionSettings.of(settings), getClass().getClassLoader());
    return (YtsaurusCluster) cluster;
  }

  @Test
  void handlesWithTheSameAddressAndSettingsShareOneConnectionCountedByReference() {
    Map<String, String> settings = Map.of("yt.token", TOKEN);
    YtsaurusClientConfig config = YtsaurusClientConfig.fromSettings(emulator.url(), settings);

    YtsaurusCluster first = connect(settings);
    YtsaurusCluster second = connect(settings);
    YtsaurusCluster otherTimeout = connect(Map.of("yt.token", TOKEN, "yt.http.maxAttempts", "2"));

    assertSame(first.connection(), second.connection());
    assertNotSame(first.connection(), otherTimeout.connection(), "other settings, other client");
    assertEquals(2, SharedProxyConnections.references(config));

    first.close();
    first.close();
    assertEquals(1, SharedProxyConnections.references(config), "a second close is a no-op");
    second.close();
    otherTimeout.close();
    assertEquals(0, SharedProxyConnections.references(config));
    assertTrue(SharedProxyConnections.isOpen(config), "kept for the next task while idle");

    YtsaurusCluster third = connect(settings);
    assertSame(second.connection(), third.connection(), "reused after going idle");
    third.close();
  }

  @Test
  void closingOneHandleLeavesTheOthersWorkingWithTheirTransactions() {
    Map<String, String> settings = Map.of("yt.token", TOKEN);
    YtsaurusCluster closedEarly = connect(settings);
    try (YtsaurusCluster working = connect(settings)) {
      YPath table = YPath.of("//home/out");
      new HttpClusterAdmin(working)
          .createSortedTable(
              table, List.of(Columns.key("k", "int64"), Columns.value("v", "string")));
      // A 1 s lease that only its starter, this test, keeps alive past the sleeps.
      TabletTransaction transaction = working.transactions().start(Duration.ofSeconds(1));

      closedEarly.close();
      for (int i = 0; i < 3; i++) {
        sleep(500);
        transaction.ping();
      }
      transaction.insertRows(table, List.of(Row.of("k", 1L, "v", "a")));
      transaction.commit();

      assertEquals(1, working.outputTables().readAll(table).size());
    }
  }

  @Test
  void theAdapterDoesNotRenewATransactionItsStarterDoesNotPing() {
    try (YtsaurusCluster cluster = connect(Map.of("yt.token", TOKEN))) {
      YPath table = YPath.of("//home/unpinged");
      new HttpClusterAdmin(cluster)
          .createSortedTable(
              table, List.of(Columns.key("k", "int64"), Columns.value("v", "string")));
      TabletTransaction transaction = cluster.transactions().start(Duration.ofSeconds(1));

      sleep(1_500);

      YtHttpException e =
          assertThrows(
              YtHttpException.class,
              () -> transaction.insertRows(table, List.of(Row.of("k", 1L, "v", "a"))));
      assertTrue(e.hasCode(YtErrorCode.NO_SUCH_TRANSACTION), e.toString());
    }
  }

  @Test
  void anIdleConnectionReusedLaterAsksForHostsAgain() {
    Map<String, String> settings = Map.of("yt.token", TOKEN);
    int port = emulator.port();
    try (YtsaurusCluster first = connect(settings)) {
      first.transactions().start(Duration.ofSeconds(30)).abort(); // fetches /hosts
    }
    emulator.close();
    // The same address again, with new proxies behind it (a fresh cluster state).
    emulator = restartOn(port);

    try (YtsaurusCluster reused = connect(settings)) {
      for (int i = 0; i < 2; i++) {
        // Transactions go to each host of /hosts in turn: a stale list would name a dead port.
        reused.transactions().start(Duration.ofSeconds(30)).abort();
      }
    }
  }

  /**
   * The emulator binds without SO_REUSEADDR (so that a port taken on any of its addresses is
   * noticed), and the connections it closed keep the port in TIME_WAIT for up to a minute on Linux:
   * a restart on the same port waits for that.
   */
  private static YtEmulator restartOn(int port) {
    UncheckedIOException last = null;
    for (int attempt = 0; attempt < 300; attempt++) {
      try {
        return YtEmulator.start(EmulatorOptions.defaults().withToken(TOKEN).withPort(port));
      } catch (UncheckedIOException e) {
        last = e;
        sleep(250);
      }
    }
    throw last;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
