package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.emulator.RawHttp.Reply;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code /hosts} as {@code yt/yt/server/http_proxy/coordinator.cpp} answers it (bare host names,
 * {@code show_ports} false; {@code ?role=}; {@code Accept: text/plain}; {@code /hosts/all}), and
 * the emulator's way to stay reachable on a random port: every proxy listens on the same port on
 * its own loopback address, so a client that adds the cluster address's port to a listed host
 * reaches that proxy.
 */
class HostsConformanceTest {

  @RegisterExtension
  final YtEmulatorExtension yt =
      new YtEmulatorExtension(EmulatorOptions.defaults().withProxyCount(3));

  private final RawHttp http = new RawHttp(null);

  private List<String> hosts(Reply reply) {
    assertEquals(200, reply.status(), reply.text());
    List<String> hosts = new ArrayList<>();
    reply.json().forEach(h -> hosts.add(h.asText()));
    return hosts;
  }

  @Test
  void hostsAreBareLoopbackAddressesSharingTheClusterPort() {
    List<String> hosts = hosts(http.raw("GET", yt.emulator().url() + "/hosts", null));

    assertEquals(List.of("127.0.0.1", "127.0.0.2", "127.0.0.3"), hosts);
    int port = URI.create(yt.emulator().url()).getPort();
    for (int i = 0; i < hosts.size(); i++) {
      // What a client does: the listed host, the scheme and port of the cluster address.
      String url = "http://" + hosts.get(i) + ":" + port;
      assertEquals(yt.emulator().proxyUrls().get(i), url);
      Reply reply = http.raw("GET", url + "/api/v4/get?path=//sys/@cluster_name", null);
      assertEquals(200, reply.status(), url);
      assertEquals(hosts.get(i), reply.header("X-YT-Proxy"), "answered by that proxy");
    }
  }

  @Test
  void aTransactionStartedThroughAListedHostStaysThere() {
    int port = URI.create(yt.emulator().url()).getPort();
    String second = "http://127.0.0.2:" + port;
    String id =
        http.command("POST", second, "start_transaction", "{\"type\":\"tablet\"}")
            .json()
            .path("transaction_id")
            .asText();

    String tx = "{\"transaction_id\":\"" + id + "\"}";
    assertEquals(
        11000, http.command("POST", yt.emulator().url(), "ping_transaction", tx).errorCode());
    assertEquals(200, http.command("POST", second, "ping_transaction", tx).status());
  }

  @Test
  void roleFilterAndPlainTextAndAll() {
    String base = yt.emulator().url();

    assertEquals(List.of(), hosts(http.raw("GET", base + "/hosts?role=control", null)));
    assertEquals(3, hosts(http.raw("GET", base + "/hosts?role=data", null)).size());
    assertEquals(
        "127.0.0.1\n127.0.0.2\n127.0.0.3\n",
        http.raw("GET", base + "/hosts", null, "Accept", "text/plain").text());
    Reply all = http.raw("GET", base + "/hosts/all", null);
    assertEquals(3, all.json().size());
    assertEquals("127.0.0.2", all.json().get(1).path("host").asText());
    assertEquals(
        URI.create(yt.emulator().proxyUrls().get(1)).getAuthority(),
        all.json().get(1).path("name").asText());
  }

  @Test
  void showPortsListsHostAndPort() {
    try (YtEmulator shown =
        YtEmulator.start(EmulatorOptions.defaults().withProxyCount(2).withShowPorts(true))) {
      int port = shown.port();
      assertEquals(
          List.of("127.0.0.1:" + port, "127.0.0.2:" + port),
          hosts(http.raw("GET", shown.url() + "/hosts", null)));
    }
  }

  @Test
  void aRestartOnTheSamePortRightAfterCloseBindsIt() {
    YtEmulator first = YtEmulator.start(EmulatorOptions.defaults());
    int port = first.port();
    assertEquals(200, http.raw("GET", first.url() + "/hosts", null).status());
    first.close();
    try (YtEmulator again = YtEmulator.start(EmulatorOptions.defaults().withPort(port))) {
      assertEquals(200, http.raw("GET", again.url() + "/hosts", null).status());
    }
  }

  @Test
  void aFixedPortIsUsedOnEveryAddress() throws IOException {
    int port;
    try (ServerSocket probe = new ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    try (YtEmulator fixed =
        YtEmulator.start(EmulatorOptions.defaults().withProxyCount(2).withPort(port))) {
      assertEquals(
          List.of("http://127.0.0.1:" + port, "http://127.0.0.2:" + port), fixed.proxyUrls());
      assertTrue(
          http.raw("GET", "http://127.0.0.2:" + port + "/hosts", null)
              .text()
              .contains("127.0.0.2"));
    }
    // Restarting on the same port right away works although the last run's connections linger.
    try (YtEmulator again =
        YtEmulator.start(EmulatorOptions.defaults().withProxyCount(2).withPort(port))) {
      assertEquals(200, http.raw("GET", again.url() + "/hosts", null).status());
    }
  }
}
