package io.ytstream.ytsaurus;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
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
 *   <li>{@code yt.http.proxyBanMs} (120000): how long a heavy proxy that answered 503 or could not
 *       be reached is skipped; {@code yt.http.proxyChoiceSeed} (none): the seed of the random
 *       choice among the first heavy proxies ({@link ProxyFailover});
 *   <li>{@code yt.http.format}: only {@code yson}, as rows always travel as binary YSON; any other
 *       value, {@code json} included, fails naming the setting;
 *   <li>{@code yt.http.caCertificates} (a PEM file), or {@code yt.http.trustStore} (PKCS12/JKS)
 *       with {@code yt.http.trustStorePassword}: the certificates an {@code https://} proxy may
 *       present, instead of the JVM's default trust store.
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
    Optional<HttpsTrust> trust,
    RequestLogger requestLogger,
    ProxyFailover failover) {

  /** The row format setting: only {@code yson}, the one format the client speaks. */
  static final String ROW_FORMAT = "yt.http.format";

  public YtsaurusClientConfig {
    Objects.requireNonNull(proxy, "proxy");
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(clusterName, "clusterName");
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    Objects.requireNonNull(connectTimeout, "connectTimeout");
    Objects.requireNonNull(backoff, "backoff");
    Objects.requireNonNull(trust, "trust");
    Objects.requireNonNull(requestLogger, "requestLogger");
    Objects.requireNonNull(failover, "failover");
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
        RequestLogger.NONE,
        ProxyFailover.DEFAULTS);
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
    requireYsonRows(get);
    YtsaurusClientConfig defaults =
        of(address, TokenSource.resolve(settings, environment, homeDirectory));
    return new YtsaurusClientConfig(
        defaults.proxy(),
        defaults.token(),
        get.apply("yt.cluster.name"),
        millis(get, "yt.http.requestTimeoutMs", 1).orElse(defaults.requestTimeout()),
        millis(get, "yt.http.connectTimeoutMs", 1).orElse(defaults.connectTimeout()),
        number(get, "yt.http.maxAttempts", 1).map(Math::toIntExact).orElse(defaults.maxAttempts()),
        millis(get, "yt.http.backoffMs", 0).orElse(defaults.backoff()),
        bool(get, "yt.http.discoverHeavyProxies").orElse(defaults.discoverHeavyProxies()),
        trust(get),
        RequestLogger.NONE,
        new ProxyFailover(
            millis(get, "yt.http.proxyBanMs", 0).orElse(defaults.failover().banTime()),
            get.apply("yt.http.proxyChoiceSeed")
                .map(v -> OptionalLong.of(seed(v)))
                .orElse(OptionalLong.empty())));
  }

  private static long seed(String raw) {
    try {
      return Long.parseLong(raw.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "setting yt.http.proxyChoiceSeed must be a whole number, got '" + raw + "'", e);
    }
  }

  /**
   * Rows travel as binary YSON only (what the server's Python client speaks); a setting that asks
   * for another format fails rather than being ignored, so a job written for JSON rows is told.
   */
  private static void requireYsonRows(Function<String, Optional<String>> get) {
    get.apply(ROW_FORMAT)
        .filter(v -> !v.strip().equalsIgnoreCase("yson"))
        .ifPresent(
            v -> {
              throw new IllegalArgumentException(
                  "setting "
                      + ROW_FORMAT
                      + "="
                      + v
                      + " is not supported: rows travel as binary YSON only; remove the setting"
                      + " (or set it to yson)");
            });
  }

  private static Optional<Duration> millis(
      Function<String, Optional<String>> get, String key, long min) {
    return number(get, key, min).map(Duration::ofMillis);
  }

  /** A whole number {@code >= min}; anything else fails naming the setting and the value. */
  private static Optional<Long> number(
      Function<String, Optional<String>> get, String key, long min) {
    return get.apply(key)
        .map(
            raw -> {
              try {
                long value = Long.parseLong(raw.strip());
                if (value >= min && value <= Integer.MAX_VALUE) {
                  return value;
                }
              } catch (NumberFormatException e) {
                // reported below
              }
              throw new IllegalArgumentException(
                  "setting "
                      + key
                      + " must be a whole number from "
                      + min
                      + " to "
                      + Integer.MAX_VALUE
                      + ", got '"
                      + raw
                      + "'");
            });
  }

  private static Optional<Boolean> bool(Function<String, Optional<String>> get, String key) {
    return get.apply(key)
        .map(
            raw -> {
              String v = raw.strip().toLowerCase(Locale.ROOT);
              if (v.equals("true") || v.equals("false")) {
                return Boolean.parseBoolean(v);
              }
              throw new IllegalArgumentException(
                  "setting " + key + " must be true or false, got '" + raw + "'");
            });
  }

  /**
   * {@code yt.http.caCertificates} (a PEM file) or {@code yt.http.trustStore} with {@code
   * yt.http.trustStorePassword}; at most one of the two.
   */
  private static Optional<HttpsTrust> trust(Function<String, Optional<String>> get) {
    Optional<String> pem = get.apply(HttpsTrust.CA_CERTIFICATES);
    Optional<String> store = get.apply(HttpsTrust.TRUST_STORE);
    Optional<String> password = get.apply(HttpsTrust.TRUST_STORE_PASSWORD);
    if (pem.isPresent() && store.isPresent()) {
      throw new IllegalArgumentException(
          "settings "
              + HttpsTrust.CA_CERTIFICATES
              + "="
              + pem.get()
              + " and "
              + HttpsTrust.TRUST_STORE
              + "="
              + store.get()
              + " are both set; give one (a PEM file of CA certificates, or a trust store)");
    }
    if (password.isPresent() && store.isEmpty()) {
      throw new IllegalArgumentException(
          "setting "
              + HttpsTrust.TRUST_STORE_PASSWORD
              + " is set without "
              + HttpsTrust.TRUST_STORE
              + "; name the trust store file it opens");
    }
    if (pem.isPresent()) {
      return Optional.of(HttpsTrust.pem(Path.of(pem.get())));
    }
    return store.map(file -> HttpsTrust.trustStore(Path.of(file), password));
  }

  /** Trust exactly these certificates for an {@code https://} proxy. */
  public YtsaurusClientConfig withCaCertificates(Path pemFile) {
    return new YtsaurusClientConfig(
        proxy,
        token,
        clusterName,
        requestTimeout,
        connectTimeout,
        maxAttempts,
        backoff,
        discoverHeavyProxies,
        Optional.of(HttpsTrust.pem(pemFile)),
        requestLogger,
        failover);
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
        trust,
        logger,
        failover);
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
        trust,
        requestLogger,
        failover);
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
        trust,
        requestLogger,
        failover);
  }

  /** Fails over between heavy proxies as {@code failover} says. */
  public YtsaurusClientConfig withProxyFailover(ProxyFailover newFailover) {
    return new YtsaurusClientConfig(
        proxy,
        token,
        clusterName,
        requestTimeout,
        connectTimeout,
        maxAttempts,
        backoff,
        discoverHeavyProxies,
        trust,
        requestLogger,
        newFailover);
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
        + ", proxyBan="
        + failover.banTime()
        + failover.seed().stream().mapToObj(v -> ", proxyChoiceSeed=" + v).findFirst().orElse("")
        + trust.map(t -> ", trust=" + t).orElse("")
        + "}";
  }
}
