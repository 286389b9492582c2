package io.ytstream.ytsaurus;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Which certificates an {@code https://} proxy may present, when not the JVM's default trust store
 * (a cluster behind a private CA, or the emulator's self-signed certificate). The given
 * certificates replace the default ones for this connection. {@link #toString} does not show the
 * password.
 *
 * @param setting the setting that named the file ({@link #CA_CERTIFICATES} or {@link
 *     #TRUST_STORE}), for error messages
 * @param file a PEM file of one or more certificates, or a PKCS12/JKS trust store
 * @param password the trust store's password ({@link #TRUST_STORE_PASSWORD}); none for PEM
 */
record HttpsTrust(String setting, Path file, Optional<String> password) {

  static final String CA_CERTIFICATES = "yt.http.caCertificates";
  static final String TRUST_STORE = "yt.http.trustStore";
  static final String TRUST_STORE_PASSWORD = "yt.http.trustStorePassword";

  HttpsTrust {
    Objects.requireNonNull(setting, "setting");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(password, "password");
  }

  static HttpsTrust pem(Path file) {
    return new HttpsTrust(CA_CERTIFICATES, file, Optional.empty());
  }

  static HttpsTrust trustStore(Path file, Optional<String> password) {
    return new HttpsTrust(TRUST_STORE, file, password);
  }

  /**
   * A client TLS context trusting exactly these certificates; a file that cannot be read fails
   * naming the setting, the file and the fix.
   */
  SSLContext sslContext() {
    try {
      KeyStore trusted = setting.equals(CA_CERTIFICATES) ? fromPem() : fromStore();
      if (trusted.size() == 0) {
        throw new IllegalArgumentException(
            "setting " + setting + "=" + file + " holds no certificate; give the proxy's CA");
      }
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trusted);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, factory.getTrustManagers(), null);
      return context;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "setting "
              + setting
              + "="
              + file
              + " cannot be read ("
              + e.getMessage()
              + "); "
              + (setting.equals(CA_CERTIFICATES)
                  ? "give a PEM file of the proxy's CA certificate(s)"
                  : "give a PKCS12 or JKS trust store and its password in " + TRUST_STORE_PASSWORD),
          e);
    }
  }

  private KeyStore fromPem() throws IOException, GeneralSecurityException {
    List<Certificate> certificates;
    try (InputStream in = Files.newInputStream(file)) {
      certificates =
          new ArrayList<>(CertificateFactory.getInstance("X.509").generateCertificates(in));
    }
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    store.load(null, null);
    for (int i = 0; i < certificates.size(); i++) {
      store.setCertificateEntry("ca-" + i, certificates.get(i));
    }
    return store;
  }

  private KeyStore fromStore() throws IOException, GeneralSecurityException {
    // PKCS12 reads JKS stores too (keystore.type.compat), so one type serves both.
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, password.map(String::toCharArray).orElse(null));
    }
    return store;
  }

  @Override
  public String toString() {
    return setting + "=" + file + password.map(p -> " (password <redacted>)").orElse("");
  }
}
