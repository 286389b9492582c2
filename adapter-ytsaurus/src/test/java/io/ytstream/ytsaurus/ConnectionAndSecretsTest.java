package io.ytstream.ytsaurus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtException;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.ports.spi.ClusterConnector;
import io.ytstream.ports.spi.ClusterConnectors;
import io.ytstream.ports.spi.ConnectionSettings;
import io.ytstream.ports.spi.YtCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Addresses, the connector SPI, where the token comes from, and that it never leaks. */
class ConnectionAndSecretsTest {

  private static final String SECRET = "AQAD-very-secret-token-123";

  @Test
  void acceptsHttpHttpsAndBareHostsButNotOtherSchemes() {
    YtsaurusConnector connector = new YtsaurusConnector();

    assertTrue(connector.accepts("http://localhost:8000"));
    assertTrue(connector.accepts("https://proxy.example.com"));
    assertTrue(connector.accepts("hahn"));
    assertTrue(connector.accepts("localhost:8000"));
    assertFalse(connector.accepts("inmemory:demo"));
    assertFalse(connector.accepts("yt:///tmp/x"));
    assertFalse(connector.accepts("file:/tmp"));
    assertEquals("http://hahn", ProxyAddress.normalize("hahn").toString());
    assertEquals("https://p:443", ProxyAddress.normalize("HTTPS://p:443/").toString());
    assertThrows(IllegalArgumentException.class, () -> ProxyAddress.normalize("http://h/api"));
  }

  @Test
  void theServiceLoaderFindsTheConnectorAndItConnectsToABareHost() {
    List<String> names = new ArrayList<>();
    for (ClusterConnector c : ClusterConnectors.available(getClass().getClassLoader())) {
      names.add(c.name());
    }
    assertTrue(names.contains("ytsaurus-http"), names.toString());

    try (YtEmulator emulator = YtEmulator.start(EmulatorOptions.defaults().withToken(SECRET));
        YtCluster cluster =
            ClusterConnectors.connect(
                "127.0.0.1:" + emulator.port(),
                ConnectionSettings.of(Map.of("spark.hadoop.yt.token", SECRET)),
                getClass().getClassLoader())) {
      assertInstanceOf(YtsaurusCluster.class, cluster);
      assertEquals("emulator", cluster.name(), "read from //sys/@cluster_name");
    }
  }

  @Test
  void tokenComesFromTheSettingThenTheEnvironmentThenTheFile(@TempDir Path home) throws Exception {
    Files.createDirectories(home.resolve(".yt"));
    Files.writeString(home.resolve(".yt/token"), "from-file\n", StandardCharsets.UTF_8);

    assertEquals(
        Optional.of(OAuthToken.of("from-setting")),
        TokenSource.resolve(Map.of("yt.token", "from-setting"), k -> "from-env", home));
    assertEquals(
        Optional.of(OAuthToken.of("from-env")),
        TokenSource.resolve(Map.of(), k -> "from-env", home));
    assertEquals(
        Optional.of(OAuthToken.of("from-file")), TokenSource.resolve(Map.of(), k -> null, home));
    assertEquals(
        Optional.empty(), TokenSource.resolve(Map.of(), k -> null, home.resolve("nobody")));
  }

  @Test
  void theTokenNeverAppearsInToStringLogsOrErrors() {
    OAuthToken token = OAuthToken.of(SECRET);
    List<String> logLines = new ArrayList<>();
    try (YtEmulator emulator =
        YtEmulator.start(EmulatorOptions.defaults().withToken("the-right-one"))) {
      YtsaurusClientConfig config =
          YtsaurusClientConfig.of(emulator.url(), Optional.of(token))
              .withRequestLogger(r -> logLines.add(r.line()));

      YtException error = assertThrows(YtException.class, () -> YtsaurusCluster.connect(config));

      assertTrue(error.hasCode(401), error.codes().toString());
      // http_authenticator.cpp: 401 with 111 InvalidCredentials; the message names the proxy.
      assertTrue(error.hasCode(111), error.codes().toString());
      assertTrue(error.getMessage().contains(emulator.url()), error.getMessage());
      assertFalse(error.getMessage().contains(SECRET), error.getMessage());
      assertFalse(config.toString().contains(SECRET), config.toString());
      assertFalse(token.toString().contains(SECRET));
      assertFalse(logLines.isEmpty());
      logLines.forEach(line -> assertFalse(line.contains(SECRET), line));
      assertTrue(logLines.get(0).contains("OAuth <redacted>"), logLines.get(0));
    }
    ConnectionSettings settings = ConnectionSettings.of(Map.of("yt.token", SECRET));
    assertFalse(settings.toString().contains(SECRET), settings.toString());
  }

  @Test
  void aServerErrorThatEchoesTheTokenIsRedacted() {
    try (ScriptedProxy proxy = new ScriptedProxy()) {
      proxy.then(
          ScriptedProxy.status(
              400, "{\"code\":1,\"message\":\"bad header OAuth " + SECRET + "\"}"));
      YtsaurusClientConfig config =
          YtsaurusClientConfig.of(proxy.url(), Optional.of(OAuthToken.of(SECRET)));

      YtException error = assertThrows(YtException.class, () -> YtsaurusCluster.connect(config));

      assertFalse(error.getMessage().contains(SECRET), error.getMessage());
      assertTrue(error.getMessage().contains("<redacted>"), error.getMessage());
    }
  }
}
