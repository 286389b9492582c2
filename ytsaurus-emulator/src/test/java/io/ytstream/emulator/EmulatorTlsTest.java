package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.emulator.RawHttp.Reply;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The emulator over HTTPS: served with a self-signed certificate made at test time. */
class EmulatorTlsTest {

  static final String TOKEN = "tls-test-token";

  @RegisterExtension
  static final YtEmulatorExtension YT =
      YtEmulatorExtension.https(EmulatorOptions.defaults().withToken(TOKEN));

  @Test
  void servesTheV4ApiOverHttpsToAClientThatTrustsTheCertificate(
      YtEmulator yt, SelfSignedCertificate certificate) {
    RawHttp https = new RawHttp(TOKEN, trusting(certificate.certificatePem()));

    Reply hosts = https.send("GET", yt.url() + "/hosts", null, null, null);
    Reply name = https.command("GET", yt.url(), "get", "{\"path\":\"//sys/@cluster_name\"}");

    assertTrue(yt.url().startsWith("https://127.0.0.1:"), yt.url());
    assertTrue(yt.proxyUrls().stream().allMatch(u -> u.startsWith("https://")));
    assertEquals(200, hosts.status());
    assertEquals(2, hosts.json().size());
    assertEquals(200, name.status(), name.text());
    assertEquals("emulator", name.json().path("value").asText());
  }

  @Test
  void theTrustStoreFormTrustsItToo(YtEmulator yt, SelfSignedCertificate certificate)
      throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(certificate.trustStore())) {
      trust.load(in, certificate.password().toCharArray());
    }
    RawHttp https = new RawHttp(TOKEN, context(trust));

    assertEquals(200, https.send("GET", yt.url() + "/hosts", null, null, null).status());
  }

  @Test
  void aClientThatDoesNotTrustTheCertificateFailsTheHandshakeAtOnce(YtEmulator yt) {
    RawHttp defaultTrust = new RawHttp(TOKEN);

    UncheckedIOException failure =
        assertTimeoutPreemptively(
            Duration.ofSeconds(20),
            () ->
                assertThrows(
                    UncheckedIOException.class,
                    () -> defaultTrust.send("GET", yt.url() + "/hosts", null, null, null)));

    assertTrue(
        failure.getCause() instanceof SSLHandshakeException,
        "a certificate error, not a timeout: " + failure.getCause());
  }

  @Test
  void plainHttpToAnHttpsProxyFailsInsteadOfHanging(YtEmulator yt) {
    RawHttp plain = new RawHttp(TOKEN);
    String httpUrl = yt.url().replace("https://", "http://");

    assertTimeoutPreemptively(
        Duration.ofSeconds(20),
        () ->
            assertThrows(
                UncheckedIOException.class,
                () -> plain.send("GET", httpUrl + "/hosts", null, null, null)));
  }

  @Test
  void commandLineTakesAKeyStoreWithItsPasswordOrMakesASelfSignedOne(@TempDir Path dir) {
    EmulatorOptions options =
        YtEmulatorMain.parse(new String[] {"--tls", "/k.p12", "--tls-password", "pw"});
    YtEmulatorMain.Command selfSigned =
        YtEmulatorMain.parseCommand(new String[] {"--tls-self-signed", dir.toString()});

    assertEquals(new TlsKeyStore(Path.of("/k.p12"), "pw"), options.tls().orElseThrow());
    assertEquals("https", options.scheme());
    assertTrue(Files.isRegularFile(selfSigned.selfSigned().orElseThrow().certificatePem()));
    assertEquals(
        selfSigned.selfSigned().get().serverKeyStore(), selfSigned.options().tls().orElseThrow());
    IllegalArgumentException noPassword =
        assertThrows(
            IllegalArgumentException.class,
            () -> YtEmulatorMain.parse(new String[] {"--tls", "/k.p12"}));
    assertTrue(noPassword.getMessage().contains("--tls-password"), noPassword.getMessage());
    assertTrue(!options.toString().contains("pw"), "the password is not shown: " + options);
  }

  @Test
  void aKeyStoreThatCannotBeReadFailsTheStartNamingTheFile(@TempDir Path dir) throws IOException {
    Path broken = Files.writeString(dir.resolve("broken.p12"), "not a key store");

    IllegalArgumentException failure =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                YtEmulator.start(
                    EmulatorOptions.defaults().withTls(new TlsKeyStore(broken, "pw"))));

    assertTrue(failure.getMessage().contains(broken.toString()), failure.getMessage());
  }

  static SSLContext trusting(Path pem) {
    try (InputStream in = Files.newInputStream(pem)) {
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      List<? extends Certificate> certificates =
          List.copyOf(CertificateFactory.getInstance("X.509").generateCertificates(in));
      for (int i = 0; i < certificates.size(); i++) {
        trust.setCertificateEntry("ca-" + i, certificates.get(i));
      }
      return context(trust);
    } catch (IOException | GeneralSecurityException e) {
      throw new AssertionError(e);
    }
  }

  private static SSLContext context(KeyStore trust) {
    try {
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trust);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, factory.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new AssertionError(e);
    }
  }
}
