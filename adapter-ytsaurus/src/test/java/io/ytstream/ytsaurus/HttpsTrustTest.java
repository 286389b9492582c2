package io.ytstream.ytsaurus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.SelfSignedCertificate;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.ports.spi.ClusterConnectors;
import io.ytstream.ports.spi.ConnectionSettings;
import io.ytstream.ports.spi.YtCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTPS to a proxy whose certificate the JVM does not trust by default: the settings {@code
 * yt.http.caCertificates} and {@code yt.http.trustStore} make it trusted, and an untrusted or wrong
 * certificate fails at once with a message that says which setting to use, never after retries or a
 * hang.
 */
class HttpsTrustTest {

  static final String TOKEN = "https-secret-token";
  private static final Duration FAST = Duration.ofSeconds(20);

  private static SelfSignedCertificate certificate;
  private static YtEmulator https;

  @BeforeAll
  static void start() {
    certificate = EmulatorClusterFixture.Certificate.SHARED;
    https =
        YtEmulator.start(
            EmulatorOptions.defaults().withToken(TOKEN).withTls(certificate.serverKeyStore()));
  }

  @AfterAll
  static void stop() {
    https.close();
  }

  private static YtCluster connect(String url, Map<String, String> settings) {
    return ClusterConnectors.connect(
        url, ConnectionSettings.of(settings), HttpsTrustTest.class.getClassLoader());
  }

  @Test
  void aPemFileOfTheCaMakesTheProxyTrusted() {
    try (YtCluster cluster =
        connect(
            https.url(), Map.of("yt.token", TOKEN, "yt.http.caCertificates", pem(certificate)))) {
      assertEquals("emulator", cluster.name());
      assertTrue(cluster.checkpoints().status(YPath.of("//nothing/here")).isEmpty());
    }
  }

  @Test
  void aTrustStoreWithItsPasswordMakesTheProxyTrusted() {
    try (YtCluster cluster =
        connect(
            https.url(),
            Map.of(
                "yt.token",
                TOKEN,
                "spark.hadoop.yt.http.trustStore",
                certificate.trustStore().toString(),
                "spark.hadoop.yt.http.trustStorePassword",
                certificate.password()))) {
      assertEquals("emulator", cluster.name());
    }
  }

  @Test
  void withoutTrustTheHandshakeFailsOnceWithAMessageNamingTheSettings() {
    List<RequestLogger.LoggedRequest> requests = new CopyOnWriteArrayList<>();
    YtsaurusClientConfig config =
        YtsaurusClientConfig.fromSettings(https.url(), Map.of("yt.token", TOKEN))
            .withMaxAttempts(5, Duration.ofMillis(200))
            .withRequestLogger(requests::add);

    YtTransportException failure =
        assertTimeoutPreemptively(
            FAST,
            () -> assertThrows(YtTransportException.class, () -> YtsaurusCluster.connect(config)));

    assertTrue(failure.getMessage().contains("TLS handshake failed"), failure.getMessage());
    assertTrue(failure.getMessage().contains("yt.http.caCertificates"), failure.getMessage());
    assertTrue(failure.getMessage().contains("yt.http.trustStore"), failure.getMessage());
    assertEquals(1, requests.size(), "a certificate error is not retried: " + requests);
    assertFalse(failure.getMessage().contains(TOKEN));
  }

  @Test
  void anotherCertificateThanTheOneTrustedFailsNamingTheTrustedFile(@TempDir Path dir) {
    SelfSignedCertificate other = SelfSignedCertificate.create(dir);

    YtTransportException failure =
        assertTimeoutPreemptively(
            FAST,
            () ->
                assertThrows(
                    YtTransportException.class,
                    () ->
                        connect(
                            https.url(),
                            Map.of("yt.token", TOKEN, "yt.http.caCertificates", pem(other)))));

    assertTrue(failure.getMessage().contains("not among those trusted by"), failure.getMessage());
    assertTrue(failure.getMessage().contains(pem(other)), failure.getMessage());
  }

  @Test
  void plainHttpToAnHttpsProxyFailsQuicklyInsteadOfHanging() {
    String wrongScheme = https.url().replace("https://", "http://");
    YtsaurusClientConfig config =
        YtsaurusClientConfig.fromSettings(wrongScheme, Map.of("yt.token", TOKEN))
            .withMaxAttempts(2, Duration.ofMillis(10));

    YtTransportException failure =
        assertTimeoutPreemptively(
            FAST,
            () -> assertThrows(YtTransportException.class, () -> YtsaurusCluster.connect(config)));

    assertTrue(failure.getMessage().contains("failed after 2 attempt(s)"), failure.getMessage());
  }

  @Test
  void badTrustSettingsNameTheSettingTheValueAndTheFix(@TempDir Path dir) throws IOException {
    Path notPem = Files.writeString(dir.resolve("ca.pem"), "not a certificate");

    IllegalArgumentException both =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                YtsaurusClientConfig.fromSettings(
                    https.url(),
                    Map.of("yt.http.caCertificates", "/a.pem", "yt.http.trustStore", "/t.p12")));
    IllegalArgumentException passwordAlone =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                YtsaurusClientConfig.fromSettings(
                    https.url(), Map.of("yt.http.trustStorePassword", "secret-pw")));
    IllegalArgumentException unreadable =
        assertThrows(
            IllegalArgumentException.class,
            () -> connect(https.url(), Map.of("yt.http.caCertificates", notPem.toString())));
    IllegalArgumentException wrongPassword =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                connect(
                    https.url(),
                    Map.of(
                        "yt.http.trustStore",
                        certificate.trustStore().toString(),
                        "yt.http.trustStorePassword",
                        "wrong-secret-pw")));

    assertTrue(both.getMessage().contains("/a.pem") && both.getMessage().contains("/t.p12"));
    assertTrue(
        passwordAlone.getMessage().contains("without yt.http.trustStore"),
        passwordAlone.getMessage());
    assertFalse(passwordAlone.getMessage().contains("secret-pw"));
    assertTrue(unreadable.getMessage().contains("yt.http.caCertificates=" + notPem));
    assertTrue(unreadable.getMessage().contains("PEM"), unreadable.getMessage());
    assertTrue(wrongPassword.getMessage().contains("yt.http.trustStore="));
    assertFalse(wrongPassword.getMessage().contains("wrong-secret-pw"));
  }

  @Test
  void badNumbersNameTheSettingAndTheValue() {
    IllegalArgumentException failure =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                YtsaurusClientConfig.fromSettings(
                    https.url(), Map.of("spark.hadoop.yt.http.requestTimeoutMs", "soon")));

    assertTrue(failure.getMessage().contains("yt.http.requestTimeoutMs"), failure.getMessage());
    assertTrue(failure.getMessage().contains("'soon'"), failure.getMessage());
  }

  private static String pem(SelfSignedCertificate c) {
    return c.certificatePem().toString();
  }
}
