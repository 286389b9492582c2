package io.ytstream.emulator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A fresh self-signed certificate for an HTTPS emulator, made with the JDK's own {@code keytool}
 * (from {@code java.home}) so that no key material is ever committed. The certificate names {@code
 * localhost} and the loopback addresses the emulator's proxies listen on ({@code 127.0.0.1} to
 * {@code 127.0.0.}{@value #ADDRESSES}), and is valid for two days.
 *
 * <p>Clients trust it through {@link #certificatePem()} (one PEM certificate) or {@link
 * #trustStore()} (a PKCS12 trust store holding it, password {@link #password()}).
 *
 * @param serverKeyStore the key pair the emulator serves
 * @param certificatePem the certificate alone, PEM
 * @param trustStore a PKCS12 trust store with the certificate as a trusted entry
 * @param password the password of both stores (random, for this run only)
 */
public record SelfSignedCertificate(
    TlsKeyStore serverKeyStore, Path certificatePem, Path trustStore, String password) {

  private static final String ALIAS = "ytstream-emulator";

  /** Writes {@code emulator-key.p12}, {@code emulator-cert.pem} and {@code emulator-trust.p12}. */
  public static SelfSignedCertificate create(Path directory) {
    String password = UUID.randomUUID().toString();
    Path keyStore = directory.resolve("emulator-key.p12");
    Path pem = directory.resolve("emulator-cert.pem");
    Path trustStore = directory.resolve("emulator-trust.p12");
    try {
      Files.createDirectories(directory);
      for (Path old : List.of(keyStore, pem, trustStore)) {
        Files.deleteIfExists(old);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare " + directory + " for a certificate", e);
    }
    keytool(
        "-genkeypair",
        "-alias",
        ALIAS,
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        "CN=localhost",
        "-ext",
        subjectAlternativeNames(),
        "-validity",
        "2",
        "-storetype",
        "PKCS12",
        "-keystore",
        keyStore.toString(),
        "-storepass",
        password);
    keytool(
        "-exportcert",
        "-rfc",
        "-alias",
        ALIAS,
        "-keystore",
        keyStore.toString(),
        "-storepass",
        password,
        "-file",
        pem.toString());
    keytool(
        "-importcert",
        "-noprompt",
        "-alias",
        ALIAS,
        "-file",
        pem.toString(),
        "-storetype",
        "PKCS12",
        "-keystore",
        trustStore.toString(),
        "-storepass",
        password);
    return new SelfSignedCertificate(
        new TlsKeyStore(keyStore, password), pem, trustStore, password);
  }

  /** Creates one in a new temporary directory. */
  public static SelfSignedCertificate createTemporary() {
    try {
      return create(Files.createTempDirectory("ytstream-emulator-tls"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary directory for a certificate", e);
    }
  }

  private static void keytool(String... args) {
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    List<String> command = new ArrayList<>();
    command.add(keytool.toString());
    command.addAll(List.of(args));
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      process.getOutputStream().close();
      byte[] output = process.getInputStream().readAllBytes();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("keytool " + args[0] + " did not finish in 60 s");
      }
      if (process.exitValue() != 0) {
        throw new IllegalStateException(
            "keytool "
                + args[0]
                + " failed (exit "
                + process.exitValue()
                + "): "
                + new String(output, StandardCharsets.UTF_8).strip());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + keytool, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running keytool", e);
    }
  }

  @Override
  public String toString() {
    return "SelfSignedCertificate{" + certificatePem + ", password=<redacted>}";
  }

  /** Proxies the certificate covers: one loopback address each. */
  static final int ADDRESSES = 32;

  private static String subjectAlternativeNames() {
    StringBuilder san = new StringBuilder("SAN=dns:localhost");
    for (int i = 1; i <= ADDRESSES; i++) {
      san.append(",ip:127.0.0.").append(i);
    }
    return san.toString();
  }
}
