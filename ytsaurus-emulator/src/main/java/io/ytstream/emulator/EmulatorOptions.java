package io.ytstream.emulator;

import io.ytstream.inmemory.SystemTimeSource;
import io.ytstream.ports.TimeSource;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * How to start an emulator.
 *
 * @param port the first proxy's port on 127.0.0.1 (0 picks a free one); further proxies take free
 *     ports
 * @param proxyCount how many HTTP proxies {@code /hosts} lists; each keeps its own sticky
 *     transaction pool, as separate proxy processes do
 * @param token when present, every request must carry {@code Authorization: OAuth <token>} (401
 *     otherwise)
 * @param stateDir when present, mutating requests are journaled there and replayed at start
 * @param clusterName the value of {@code //sys/@cluster_name}
 * @param clock the in-memory cluster's clock (a manual clock makes lease expiry testable)
 * @param tls when present, every proxy serves HTTPS with this key store (and {@code /hosts} entries
 *     are reached over {@code https://})
 */
public record EmulatorOptions(
    int port,
    int proxyCount,
    Optional<String> token,
    Optional<Path> stateDir,
    String clusterName,
    TimeSource clock,
    Optional<TlsKeyStore> tls) {

  public static final String DEFAULT_CLUSTER_NAME = "emulator";

  public EmulatorOptions {
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(stateDir, "stateDir");
    Objects.requireNonNull(clusterName, "clusterName");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(tls, "tls");
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be in 0..65535, got " + port);
    }
    if (proxyCount < 1) {
      throw new IllegalArgumentException("proxyCount must be >= 1, got " + proxyCount);
    }
  }

  /** A free port, two proxies, no token, no state, the wall clock. */
  public static EmulatorOptions defaults() {
    return new EmulatorOptions(
        0,
        2,
        Optional.empty(),
        Optional.empty(),
        DEFAULT_CLUSTER_NAME,
        SystemTimeSource.INSTANCE,
        Optional.empty());
  }

  public EmulatorOptions withPort(int newPort) {
    return new EmulatorOptions(newPort, proxyCount, token, stateDir, clusterName, clock, tls);
  }

  public EmulatorOptions withProxyCount(int count) {
    return new EmulatorOptions(port, count, token, stateDir, clusterName, clock, tls);
  }

  public EmulatorOptions withToken(String required) {
    return new EmulatorOptions(
        port, proxyCount, Optional.of(required), stateDir, clusterName, clock, tls);
  }

  public EmulatorOptions withStateDir(Path directory) {
    return new EmulatorOptions(
        port, proxyCount, token, Optional.of(directory), clusterName, clock, tls);
  }

  public EmulatorOptions withClusterName(String name) {
    return new EmulatorOptions(port, proxyCount, token, stateDir, name, clock, tls);
  }

  public EmulatorOptions withClock(TimeSource newClock) {
    return new EmulatorOptions(port, proxyCount, token, stateDir, clusterName, newClock, tls);
  }

  /** Serves HTTPS with {@code keyStore} instead of plain HTTP. */
  public EmulatorOptions withTls(TlsKeyStore keyStore) {
    return new EmulatorOptions(
        port, proxyCount, token, stateDir, clusterName, clock, Optional.of(keyStore));
  }

  /** {@code https} when {@link #tls} is set, else {@code http}. */
  public String scheme() {
    return tls.isPresent() ? "https" : "http";
  }

  @Override
  public String toString() {
    return "EmulatorOptions{port="
        + port
        + ", proxyCount="
        + proxyCount
        + ", token="
        + (token.isPresent() ? "<redacted>" : "none")
        + ", stateDir="
        + stateDir.map(Path::toString).orElse("none")
        + ", clusterName="
        + clusterName
        + ", tls="
        + tls.map(TlsKeyStore::toString).orElse("none")
        + "}";
  }
}
