package io.ytstream.emulator;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Objects;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * The key pair and certificate an HTTPS emulator serves: a PKCS12 (or JKS) key store holding one
 * private key entry, and its password. {@link #toString} does not show the password.
 *
 * @param path the key store file
 * @param password the store's password, also used for the key entry (as {@code keytool} writes
 *     PKCS12 stores)
 */
public record TlsKeyStore(Path path, String password) {

  public TlsKeyStore {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(password, "password");
  }

  /** A server-side TLS context over this key store; fails naming the file when it cannot load. */
  SSLContext serverContext() {
    try (InputStream in = Files.newInputStream(path)) {
      // PKCS12 reads JKS stores too (keystore.type.compat), so one type serves both.
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(in, password.toCharArray());
      KeyManagerFactory keys =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, password.toCharArray());
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys.getKeyManagers(), null, null);
      return context;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "cannot load the TLS key store "
              + path
              + " (a PKCS12 or JKS file with one private key; check the file and its password): "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public String toString() {
    return "TlsKeyStore{" + path + ", password=<redacted>}";
  }
}
