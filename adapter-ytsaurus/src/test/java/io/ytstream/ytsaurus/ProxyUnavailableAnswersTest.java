package io.ytstream.ytsaurus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.commit.CommitErrorClassifier;
import io.ytstream.core.commit.CommitOutcome;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.ytsaurus.http.RawHttpPeer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the client does with the answers of an unavailable proxy ({@code
 * yt/yt/server/http_proxy/context.cpp}: {@code DispatchUnavailable} sets {@code Retry-After: 60};
 * {@code TryRedirectHeavyRequests} refuses a control proxy's heavy request with input) and with an
 * error too large for its header ({@code ReplyError} writes it into {@code X-YT-Error} and the
 * body), against a scripted server: 2 s request timeout, 3 attempts 5 ms apart.
 */
class ProxyUnavailableAnswersTest {

  private static final String TOKEN = "scripted-secret";
  private static final String BANNED = "{\"code\":2100,\"message\":\"This proxy is banned\"}";

  private final ScriptedProxy proxy = new ScriptedProxy();
  private final ObjectMapper json = new ObjectMapper();

  @AfterEach
  void stop() {
    proxy.close();
  }

  private YtHttpClient client() {
    return new YtHttpClient(proxy.config(TOKEN));
  }

  private static final int READS = 12;

  private String hostAndPort() {
    return address().getHost() + ":" + address().getPort();
  }

  private URI address() {
    return URI.create(proxy.url());
  }

  private ObjectNode params() {
    ObjectNode params = json.createObjectNode();
    params.put("path", "//a");
    return params;
  }

  private static ScriptedProxy.Step unavailable(String retryAfter, String error) {
    return exchange -> {
      exchange.getResponseHeaders().set("Retry-After", retryAfter);
      exchange.getResponseHeaders().set("X-YT-Error", error);
      ScriptedProxy.status(503, error).answer(exchange);
    };
  }

  @Test
  void aRetryAfterThatEndsWithinTheDeadlineIsWaited() {
    proxy.then(unavailable("1", BANNED)).then(ScriptedProxy.ok("{\"value\":42}"));

    long start = System.nanoTime();
    JsonNode value = client().structured(address(), Command.GET, params(), Repeat.READ);

    assertEquals(42, value.path("value").asInt());
    long waitedMillis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(waitedMillis >= 1000, "waited " + waitedMillis + " ms, not the 1 s asked for");
    assertEquals(2, proxy.received().size());
  }

  @Test
  void aTransactionsProxyThatAsksForAWaitPastTheDeadlineFailsAtOnceSayingWhy() {
    proxy.then(unavailable("60", BANNED)).then(ScriptedProxy.ok("{}"));
    ObjectNode params = json.createObjectNode();
    params.put("transaction_id", "1-2-3-4");

    long start = System.nanoTime();
    YtHttpException error =
        assertThrows(
            YtHttpException.class,
            () ->
                client()
                    .structured(
                        ProxyTarget.transaction(address(), null),
                        Command.COMMIT_TRANSACTION,
                        params,
                        Repeat.COMMIT));

    assertTrue((System.nanoTime() - start) / 1_000_000 < 1500, "no wait for Retry-After: 60");
    assertEquals(1, proxy.received().size());
    assertTrue(error.hasCode(2100), error.toString());
    assertTrue(error.getMessage().contains("retry after 60 s"), error.getMessage());
    assertTrue(error.getMessage().contains("yt.http.requestTimeoutMs=2000"), error.getMessage());
    assertTrue(error.getMessage().contains("it is lost"), error.getMessage());
    // The proxy refused before running the commit: known not applied, so the batch is redone.
    assertEquals(CommitOutcome.RETRY_LATER, CommitErrorClassifier.classify(error));
  }

  @Test
  void theClusterAddressMayBeABalancerSoAWaitPastTheDeadlineBacksOffAndTriesAgain() {
    proxy
        .then(unavailable("60", BANNED))
        .then(unavailable("60", BANNED))
        .then(ScriptedProxy.ok("{\"value\":1}"));

    JsonNode value = client().structured(address(), Command.GET, params(), Repeat.READ);

    assertEquals(1, value.path("value").asInt());
    assertEquals(3, proxy.received().size());
  }

  @Test
  void aHeavyProxyThatCannotBeReachedIsBannedAndLeftForAnother() throws Exception {
    int deadPort;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      deadPort = probe.getLocalPort();
    }
    String dead = "http://127.0.0.1:" + deadPort;
    proxy.then(ScriptedProxy.ok("[\"127.0.0.1:" + deadPort + "\",\"" + hostAndPort() + "\"]"));
    for (int i = 0; i < READS; i++) {
      proxy.then(ScriptedProxy.ok("{\"value\":" + i + "}"));
    }
    List<RequestLogger.LoggedRequest> log = new ArrayList<>();
    YtsaurusClientConfig config =
        proxy
            .config(TOKEN)
            .withProxyFailover(new ProxyFailover(Duration.ofMinutes(2), OptionalLong.of(1)))
            .withRequestLogger(log::add);
    YtHttpClient client = new YtHttpClient(config);
    HeavyProxies heavy = new HeavyProxies(client, true, config.failover());

    for (int i = 0; i < READS; i++) {
      JsonNode value =
          client.structured(heavy.forHeavyCommand(), Command.GET, params(), Repeat.READ);
      assertEquals(i, value.path("value").asInt());
    }

    long failedConnects =
        log.stream().filter(r -> r.proxy().equals(dead) && r.status() == -1).count();
    assertEquals(1, failedConnects, "tried once, then banned: " + log);
    assertTrue(heavy.banned(URI.create(dead)));
  }

  @Test
  void aControlProxyRefusingAHeavyWriteIsAConfigurationErrorNamingTheSetting() {
    String control =
        "{\"code\":1,\"message\":\"Control proxy may not serve heavy requests with input data\"}";
    proxy.then(unavailable("60", control)).then(ScriptedProxy.ok("{}"));

    YtHttpException error =
        assertThrows(
            YtHttpException.class,
            () ->
                client()
                    .structured(
                        address(),
                        Command.INSERT_ROWS,
                        params(),
                        new byte[] {'{', '}'},
                        Repeat.ONCE));

    assertEquals(1, proxy.received().size(), "not retried: it would meet the same answer");
    assertTrue(
        error.getMessage().contains("yt.http.discoverHeavyProxies=false"), error.getMessage());
    assertTrue(error.getMessage().contains("control proxy"), error.getMessage());
    assertFalse(error.hasCode(YtErrorCode.HTTP_SERVICE_UNAVAILABLE), "nothing to retry later");
  }

  @Test
  void aCommitErrorTooLargeForItsHeaderIsReadFromTheBodyAndIsNoUnknownOutcome() throws Exception {
    // A lock conflict under a nested error whose attributes make X-YT-Error 200 KB long.
    String error =
        "{\"code\":1,\"message\":\"Error committing transaction\",\"attributes\":{},"
            + "\"inner_errors\":[{\"code\":1700,\"message\":\"Transaction lock conflict\","
            + "\"attributes\":{\"rows\":\""
            + "r".repeat(200_000)
            + "\"},\"inner_errors\":[]}]}";
    try (RawHttpPeer peer = new RawHttpPeer()) {
      peer.then(
          c -> {
            c.read();
            c.write(
                RawHttpPeer.answer(
                    400,
                    error,
                    "Content-Type: application/json",
                    "X-YT-Error: " + error,
                    "X-YT-Response-Code: 1"));
          });
      ObjectNode params = json.createObjectNode();
      params.put("transaction_id", "1-2-3-4");
      URI peerAddress = URI.create(peer.url());
      YtHttpClient client =
          new YtHttpClient(
              YtsaurusClientConfig.of(peer.url(), java.util.Optional.empty())
                  .withMaxAttempts(1, java.time.Duration.ZERO));

      YtHttpException thrown =
          assertThrows(
              YtHttpException.class,
              () ->
                  client.structured(
                      peerAddress, Command.COMMIT_TRANSACTION, params, Repeat.COMMIT));

      assertTrue(thrown.hasCode(YtErrorCode.TRANSACTION_LOCK_CONFLICT), thrown.toString());
      assertEquals(CommitOutcome.RETRY_LATER, CommitErrorClassifier.classify(thrown));
      assertEquals(List.of(), peer.failures());
    }
  }
}
