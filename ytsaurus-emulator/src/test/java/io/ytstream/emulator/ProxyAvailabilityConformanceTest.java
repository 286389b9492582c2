package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ytstream.emulator.RawHttp.Reply;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A banned or overloaded proxy as {@code yt/yt/server/http_proxy/context.cpp} answers (HTTP 503,
 * {@code Retry-After: 60}, the error in {@code X-YT-Error} and the body: 2100 from {@code
 * TryCheckAvailability}, 108 from {@code TryAcquireConcurrencySemaphore}), and {@code /hosts} as
 * {@code coordinator.cpp} lists proxies then (banned ones left out, overloaded ones kept).
 */
class ProxyAvailabilityConformanceTest {

  private static final String TOKEN = "availability-token";
  private static final String GET = "{\"path\":\"//sys/@cluster_name\"}";

  @RegisterExtension
  final YtEmulatorExtension yt =
      new YtEmulatorExtension(EmulatorOptions.defaults().withProxyCount(3).withToken(TOKEN));

  private final RawHttp http = new RawHttp(TOKEN);

  private String proxy(int i) {
    return yt.emulator().proxyUrls().get(i);
  }

  private static void assertRefused(Reply reply, int code, String message) {
    assertEquals(503, reply.status(), reply.text());
    assertEquals("60", reply.header("Retry-After"));
    assertEquals(Integer.toString(code), reply.header("X-YT-Response-Code"));
    JsonNode header = RawHttp.parseJson(reply.header("X-YT-Error"));
    assertEquals(code, header.path("code").asInt());
    assertEquals(message, header.path("message").asText());
    assertEquals(code, reply.errorCode(), "the body carries the same error");
    assertEquals(message, reply.json().path("message").asText());
  }

  private List<String> hosts() {
    Reply reply = http.raw("GET", proxy(0) + "/hosts", null);
    assertEquals(200, reply.status(), reply.text());
    List<String> hosts = new ArrayList<>();
    reply.json().forEach(h -> hosts.add(h.asText()));
    return hosts;
  }

  @Test
  void aBannedProxyRefusesEveryCommandWith2100AndTheOthersServe() {
    yt.emulator().banProxy(1);

    assertRefused(http.command("GET", proxy(1), "get", GET), 2100, "This proxy is banned");
    assertRefused(
        http.command("POST", proxy(1), "start_transaction", "{\"type\":\"tablet\"}"),
        2100,
        "This proxy is banned");
    assertEquals(200, http.command("GET", proxy(0), "get", GET).status());
    assertEquals(200, http.command("GET", proxy(2), "get", GET).status());
    assertEquals(2, yt.emulator().refusedRequests(1));
    assertEquals(1, yt.emulator().refusedCounts().count(1, "start_transaction"));
  }

  @Test
  void anOverloadedProxyRefusesWith108() {
    yt.emulator().overloadProxy(2);

    assertRefused(
        http.command("GET", proxy(2), "get", GET),
        108,
        "There are too many concurrent requests being served at the moment; please try another"
            + " proxy or try again later");
    assertEquals(200, http.command("GET", proxy(1), "get", GET).status());
  }

  @Test
  void liftingABanOrAnOverloadServesAgain() {
    yt.emulator().banProxy(1);
    yt.emulator().overloadProxy(2);
    yt.emulator().restoreProxy(1);
    yt.emulator().restoreProxy(2);

    assertEquals(200, http.command("GET", proxy(1), "get", GET).status());
    assertEquals(200, http.command("GET", proxy(2), "get", GET).status());
  }

  @Test
  void credentialsAndTheCommandAreCheckedBeforeAvailability() {
    // TryPrepare: TryParseUser and TryGetDescriptor run before TryCheckAvailability.
    yt.emulator().banProxy(1);

    assertEquals(401, new RawHttp(null).command("GET", proxy(1), "get", GET).status());
    assertEquals(404, http.command("GET", proxy(1), "no_such_command", GET).status());
  }

  @Test
  void hostsLeavesOutBannedProxiesAndKeepsOverloadedOnes() {
    yt.emulator().banProxy(1);
    yt.emulator().overloadProxy(2);

    assertEquals(List.of("127.0.0.1", "127.0.0.3"), hosts());
    // THostsHandler is not a command: a banned proxy still answers /hosts.
    assertEquals(200, http.raw("GET", proxy(1) + "/hosts", null).status());
    Reply all = http.raw("GET", proxy(0) + "/hosts/all", null);
    assertTrue(all.json().get(1).path("banned").asBoolean());
    assertFalse(all.json().get(2).path("banned").asBoolean());
    yt.emulator().restoreProxy(1);
    assertEquals(List.of("127.0.0.1", "127.0.0.2", "127.0.0.3"), hosts());
  }

  @Test
  void requestCountsTellWhichProxyRanWhatAndLeaveOutRefusals() {
    yt.emulator().banProxy(2);
    http.command("GET", proxy(0), "get", GET);
    http.command("GET", proxy(1), "get", GET);
    http.command("GET", proxy(1), "get", GET);
    http.command("GET", proxy(2), "get", GET);

    ProxyRequestCounts counts = yt.emulator().requestCounts();
    assertEquals(1, counts.count(0, "get"));
    assertEquals(2, counts.count(1, "get"));
    assertEquals(0, counts.count(2, "get"));
    assertEquals(1, yt.emulator().refusedRequests(2));
  }

  @Test
  void theConsoleNamesProxiesByTheirAddress() {
    ProxyConsole console = new ProxyConsole(yt.emulator(), System.out);

    assertEquals("proxy 2 (127.0.0.2): banned", console.apply("ban 2"));
    assertEquals(503, http.command("GET", proxy(1), "get", GET).status());
    assertEquals("proxy 2 (127.0.0.2): serving", console.apply("restore 2"));
    assertEquals(200, http.command("GET", proxy(1), "get", GET).status());
    assertTrue(console.apply("ban 4").startsWith("? no proxy 4"));
    assertTrue(console.apply("unban 1").startsWith("?"));
  }
}
