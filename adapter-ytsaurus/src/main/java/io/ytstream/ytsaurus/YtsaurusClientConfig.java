package io.ytstream.ytsaurus;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * How the adapter talks to one cluster. Built from Spark/Hadoop style settings by {@link
 * #fromSettings}; the keys are read with and without the {@code spark.hadoop.} prefix:
 *
 * <ul>
 *   <li>{@code yt.token}: the OAuth token (else {@code YT_TOKEN}, else {@code ~/.yt/token});
 *   <li>{@code yt.cluster.name}: skip reading {@code //sys/@cluster_name};
 *   <li>{@code yt.http.requestTimeoutMs} (30000), {@code yt.http.connectTimeoutMs} (10000);
 *   <li>{@code yt.http.maxAttempts} (5) and {@code yt.http.backoffMs} (100, doubled per retry);
 *   <li>{@code yt.http.discoverHeavyProxies} (true): send heavy commands and tablet transactions to
 *       a proxy from {@code /hosts}; false uses the given address for everything;
 *   <li>{@code yt.tx.pingPeriodMs}: how often a started transaction is pinged (default a third of
 *       its timeout; 0 turns pinging off).
 * </ul>
 */
public record YtsaurusClientConfig(
    URI proxy,
    Optional<OAuthToken> token,
    Optional<String> clusterName,
    Duration requestTimeout,
    Duration connectTimeout,
    int maxAttempts,
    Duration backoff,
    boolean discoverHeavyProxies,
    Optional<Duration> pingPeriod,
    RequestLogger requestLogger) {

  public YtsaurusClientConfig {
    Objects.requireNonNull(proxy, "proxy");
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(clusterName, "clusterName");
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    Objects.requireNonNull(connectTimeout, "connectTimeout");
    Objects.requireNonNull(backoff, "backoff");
    Objects.requireNonNull(pingPeriod, "pingPeriod");
    Objects.requireNonNull(requestLogger, "requestLogger");
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be >= 1, got " + maxAttempts);
    }
    if (requestTimeout.isZero() || requestTimeout.isNegative()) {
      throw new IllegalArgumentException("every request needs a positive timeout");
    }
  }

  /** Defaults for {@code address} with an explicit token (or none). */
  public static YtsaurusClientConfig of(String address, Optional<OAuthToken> token) {
    return new YtsaurusClientConfig(
        ProxyAddress.normalize(address),
        token,
        Optional.empty(),
        Duration.ofSeconds(30),
        Duration.ofSeconds(10),
        5,
        Duration.ofMillis(100),
        true,
        Optional.empty(),
        RequestLogger.NONE);
  }

  /** Reads the settings described in the class comment; the token falls back to env and file. */
  public static YtsaurusClientConfig fromSettings(String address, Map<String, String> settings) {
    return fromSettings(
        address, settings, System::getenv, Path.of(System.getProperty("user.home", ".")));
  }

  static YtsaurusClientConfig fromSettings(
      String address,
      Map<String, String> settings,
      Function<String, String> environment,
      Path homeDirectory) {
    Function<String, Optional<String>> get =
        key ->
            Optional.ofNullable(settings.get(key))
                .or(() -> Optional.ofNullable(settings.get("spark.hadoop." + key)))
                .filter(v -> !v.isBlank());
    YtsaurusClientConfig defaults =
        of(address, TokenSource.resolve(settings, environment, homeDirectory));
    return new YtsaurusClientConfig(
        defaults.proxy(),
        defaults.token(),
        get.apply("yt.cluster.name"),
        get.apply("yt.http.requestTimeoutMs")
            .map(v -> Duration.ofMillis(Long.parseLong(v)))
            .orElse(defaults.requestTimeout()),
        get.apply("yt.http.connectTimeoutMs")
            .map(v -> Duration.ofMillis(Long.parseLong(v)))
            .orElse(defaults.connectTimeout()),
        get.apply("yt.http.maxAttempts").map(Integer::parseInt).orElse(defaults.maxAttempts()),
        get.apply("yt.http.backoffMs")
            .map(v -> Duration.ofMillis(Long.parseLong(v)))
            .orElse(defaults.backoff()),
        get.apply("yt.http.discoverHeavyProxies")
            .map(Boolean::parseBoolean)
            .orElse(defaults.discoverHeavyProxies()),
        get.apply("yt.tx.pingPeriodMs").map(v -> Duration.ofMillis(Long.parseLong(v))),
        RequestLogger.NONE);
  }

  public YtsaurusClientConfig withRequestLogger(RequestLogger logger) {
    return new YtsaurusClientConfig(
        proxy,
        token,
        clusterName,
        requestTimeout,
        connectTimeout,
        maxAttempts,
        backoff,
        discoverHeavyProxies,
        pingPeriod,
        logger);
  }

  public YtsaurusClientConfig withMaxAttempts(int attempts, Duration firstBackoff) {
    return new YtsaurusClientConfig(
        proxy,
        token,
        clusterName,
        requestTimeout,
        connectTimeout,
        attempts,
        firstBackoff,
        discoverHeavyProxies,
        pingPeriod,
        requestLogger);
  }

  public YtsaurusClientConfig withPingPeriod(Optional<Duration> period) {
    return new YtsaurusClientConfig(
        proxy,
        token,
        clusterName,
        requestTimeout,
        connectTimeout,
        maxAttempts,
        backoff,
        discoverHeavyProxies,
        period,
        requestLogger);
  }

  public YtsaurusClientConfig withRequestTimeout(Duration timeout) {
    return new YtsaurusClientConfig(
        proxy,
        token,
        clusterName,
        timeout,
        connectTimeout,
        maxAttempts,
        backoff,
        discoverHeavyProxies,
        pingPeriod,
        requestLogger);
  }

  /** Never shows the token. */
  @Override
  public String toString() {
    return "YtsaurusClientConfig{proxy="
        + proxy
        + ", token="
        + (token.isPresent() ? OAuthToken.REDACTED : "none")
        + ", clusterName="
        + clusterName.orElse("(from //sys/@cluster_name)")
        + ", requestTimeout="
        + requestTimeout
        + ", maxAttempts="
        + maxAttempts
        + ", discoverHeavyProxies="
        + discoverHeavyProxies
        + "}";
  }
}
