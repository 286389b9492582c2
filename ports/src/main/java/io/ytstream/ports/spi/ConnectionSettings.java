package io.ytstream.ports.spi;

import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Settings for a connection (proxy options, timeouts, the token). {@link #toString} redacts every
 * value whose key names a secret, so settings can be logged safely.
 */
public final class ConnectionSettings {

  private final Map<String, String> values;

  private ConnectionSettings(Map<String, String> values) {
    this.values = Collections.unmodifiableMap(new TreeMap<>(values));
  }

  public static ConnectionSettings of(Map<String, String> values) {
    return new ConnectionSettings(values);
  }

  public static ConnectionSettings empty() {
    return new ConnectionSettings(Map.of());
  }

  public Optional<String> get(String key) {
    return Optional.ofNullable(values.get(key));
  }

  public Map<String, String> asMap() {
    return values;
  }

  static boolean isSecret(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    return k.contains("token") || k.contains("secret") || k.contains("password");
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder("{");
    values.forEach(
        (k, v) -> {
          if (out.length() > 1) {
            out.append(", ");
          }
          out.append(k).append('=').append(isSecret(k) ? "<redacted>" : v);
        });
    return out.append('}').toString();
  }
}
