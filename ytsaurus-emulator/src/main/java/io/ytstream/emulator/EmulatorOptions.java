package io.ytstream.emulator;

import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.SystemTimeSource;
import io.ytstream.ports.TimeSource;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * How to start an emulator.
 *
 * @param port the port every proxy listens on (0 picks a free one): proxy {@code i} (from 1)
 *     listens on {@code 127.0.0.i}, all at this one port, because {@code /hosts} names bare hosts
 *     and clients add the cluster address's port (Linux routes 127.0.0.0/8 to the loopback
 *     interface; other systems need the addresses added, or one proxy)
 * @param proxyCount how many HTTP proxies {@code /hosts} lists, at most 254; each keeps its own
 *     sticky transaction pool, as separate proxy processes do
 * @param token when present, every request must carry {@code Authorization: OAuth <token>} or a
 *     token of {@code users} (401 otherwise); this token acts as the superuser {@code root}
 * @param users more tokens, each acting as the user it maps to ({@link #withUser})
 * @param stateDir when present, mutating requests are journaled there and replayed at start
 * @param clusterName the value of {@code //sys/@cluster_name}
 * @param clock the in-memory cluster's clock (a manual clock makes lease expiry testable)
 * @param tls when present, every proxy serves HTTPS with this key store (and {@code /hosts} entries
 *     are reached over {@code https://})
 * @param showPorts {@code /hosts} entries as {@code host:port} instead of bare hosts, as the
 *     server's coordinator option {@code show_ports} does (default false, as on the server)
 * @param rowsPerStore the rows of each queue tablet are held in stores of this many rows (row
 *     indexes {@code [k*n, (k+1)*n)}), and a pull ends at the end of a store, as a tablet node's
 *     does ({@code yt/yt/server/node/query_agent/query_service.cpp}): a short answer does not mean
 *     the end of the data, only an empty one does. Default {@value #DEFAULT_ROWS_PER_STORE}
 */
public record EmulatorOptions(
    int port,
    int proxyCount,
    Optional<String> token,
    Optional<Path> stateDir,
    String clusterName,
    TimeSource clock,
    Optional<TlsKeyStore> tls,
    boolean showPorts,
    int rowsPerStore,
    Map<String, String> users) {

  public static final String DEFAULT_CLUSTER_NAME = "emulator";

  /** Rows per store of a queue tablet by default. */
  public static final int DEFAULT_ROWS_PER_STORE = 10_000;

  public EmulatorOptions {
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(stateDir, "stateDir");
    Objects.requireNonNull(clusterName, "clusterName");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(tls, "tls");
    users = Map.copyOf(Objects.requireNonNull(users, "users"));
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be in 0..65535, got " + port);
    }
    if (rowsPerStore < 1) {
      throw new IllegalArgumentException("rowsPerStore must be >= 1, got " + rowsPerStore);
    }
    if (proxyCount < 1 || proxyCount > 254) {
      throw new IllegalArgumentException(
          "proxyCount must be in 1..254 (one loopback address each), got " + proxyCount);
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
        Optional.empty(),
        false,
        DEFAULT_ROWS_PER_STORE,
        Map.of());
  }

  public EmulatorOptions withPort(int newPort) {
    return new EmulatorOptions(
        newPort,
        proxyCount,
        token,
        stateDir,
        clusterName,
        clock,
        tls,
        showPorts,
        rowsPerStore,
        users);
  }

  public EmulatorOptions withProxyCount(int count) {
    return new EmulatorOptions(
        port, count, token, stateDir, clusterName, clock, tls, showPorts, rowsPerStore, users);
  }

  public EmulatorOptions withToken(String required) {
    if (users.containsKey(required)) {
      throw new IllegalArgumentException(
          "the --token token is already the token of user "
              + users.get(required)
              + "; give another");
    }
    return new EmulatorOptions(
        port,
        proxyCount,
        Optional.of(required),
        stateDir,
        clusterName,
        clock,
        tls,
        showPorts,
        rowsPerStore,
        users);
  }

  public EmulatorOptions withStateDir(Path directory) {
    return new EmulatorOptions(
        port,
        proxyCount,
        token,
        Optional.of(directory),
        clusterName,
        clock,
        tls,
        showPorts,
        rowsPerStore,
        users);
  }

  public EmulatorOptions withClusterName(String name) {
    return new EmulatorOptions(
        port, proxyCount, token, stateDir, name, clock, tls, showPorts, rowsPerStore, users);
  }

  public EmulatorOptions withClock(TimeSource newClock) {
    return new EmulatorOptions(
        port,
        proxyCount,
        token,
        stateDir,
        clusterName,
        newClock,
        tls,
        showPorts,
        rowsPerStore,
        users);
  }

  /** Serves HTTPS with {@code keyStore} instead of plain HTTP. */
  public EmulatorOptions withTls(TlsKeyStore keyStore) {
    return new EmulatorOptions(
        port,
        proxyCount,
        token,
        stateDir,
        clusterName,
        clock,
        Optional.of(keyStore),
        showPorts,
        rowsPerStore,
        users);
  }

  /** {@code /hosts} entries with ports ({@code show_ports=%true} on a server). */
  public EmulatorOptions withShowPorts(boolean show) {
    return new EmulatorOptions(
        port, proxyCount, token, stateDir, clusterName, clock, tls, show, rowsPerStore, users);
  }

  /** Stores of {@code rows} rows in each queue tablet; pulls end at a store's end. */
  public EmulatorOptions withRowsPerStore(int rows) {
    return new EmulatorOptions(
        port, proxyCount, token, stateDir, clusterName, clock, tls, showPorts, rows, users);
  }

  /**
   * Lets requests with {@code Authorization: OAuth <token>} act as {@code user} (a non-superuser
   * unless it is {@code root}), so that ACLs decide what they may do. With users but no {@link
   * #withToken token}, only their tokens are accepted.
   */
  public EmulatorOptions withUser(String userToken, String user) {
    if (userToken == null || userToken.isBlank() || user == null || user.isBlank()) {
      throw new IllegalArgumentException(
          "a user needs a non-blank token and name, e.g. --user alice-token=alice");
    }
    if (token.isPresent() && token.get().equals(userToken)) {
      throw new IllegalArgumentException(
          "the token of user " + user + " is the --token one, which acts as root; give another");
    }
    Map<String, String> more = new HashMap<>(users);
    more.put(userToken, user);
    return new EmulatorOptions(
        port, proxyCount, token, stateDir, clusterName, clock, tls, showPorts, rowsPerStore, more);
  }

  /**
   * Every accepted token and the user it acts as: {@link #token} as {@code root}, then {@link
   * #users}. Empty when no token is required.
   */
  public Map<String, String> tokenUsers() {
    Map<String, String> all = new HashMap<>(users);
    token.ifPresent(t -> all.put(t, InMemoryCluster.ROOT_USER));
    return Map.copyOf(all);
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
        + ", showPorts="
        + showPorts
        + ", rowsPerStore="
        + rowsPerStore
        + ", users="
        + new TreeSet<>(users.values())
        + "}";
  }
}
