package io.ytstream.spark;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.spark.sql.SparkSession;

/**
 * The session settings ytstream reads ({@code spark.yt.*} and the cluster address in {@code
 * spark.hadoop.yt.proxy}), captured once on the driver and passed on explicitly.
 */
record YtSettings(
    Optional<String> proxy,
    Map<String, String> connection,
    boolean transactional,
    int dynBatchSize,
    Duration transactionTimeout,
    long maxRowsPerTabletPerTransaction) {

  static final String PROXY = "spark.hadoop.yt.proxy";
  static final String TOKEN = "spark.hadoop.yt.token";
  static final String TOKEN_SETTING = "yt.token";
  static final String TRANSACTIONAL = "spark.yt.streaming.transactional";
  static final String DYN_BATCH_SIZE = "spark.yt.write.dynBatchSize";
  static final String TRANSACTION_TIMEOUT = "spark.yt.streaming.transactionTimeoutMs";
  static final String MAX_ROWS_PER_TABLET = "spark.yt.write.maxRowsPerTabletPerTransaction";

  static final int DEFAULT_DYN_BATCH_SIZE = 50_000;

  static YtSettings of(SparkSession spark) {
    return of(new TreeMap<>(scala.jdk.javaapi.CollectionConverters.asJava(spark.conf().getAll())));
  }

  static YtSettings of(Map<String, String> conf) {
    TreeMap<String, String> connection = new TreeMap<>();
    // The connector SPI's key for the token is the Hadoop one (adapter-ytsaurus reads yt.token).
    Optional.ofNullable(conf.get(TOKEN)).ifPresent(t -> connection.put(TOKEN_SETTING, t));
    return new YtSettings(
        Optional.ofNullable(conf.get(PROXY)).filter(s -> !s.isBlank()),
        connection,
        bool(conf, TRANSACTIONAL, false),
        (int) positive(conf, DYN_BATCH_SIZE, DEFAULT_DYN_BATCH_SIZE),
        Duration.ofMillis(positive(conf, TRANSACTION_TIMEOUT, 120_000)),
        positive(conf, MAX_ROWS_PER_TABLET, 100_000));
  }

  /** The cluster: the option {@code proxy} if given, else {@code spark.hadoop.yt.proxy}. */
  ClusterRef cluster(YtOptions options) {
    String address =
        options
            .proxy()
            .or(this::proxy)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "no YTsaurus cluster: set the Spark setting spark.hadoop.yt.proxy (or the"
                            + " option proxy), e.g. inmemory:demo for an in-memory cluster in"
                            + " this JVM or http://localhost:8000 for a YTsaurus HTTP proxy"));
    return new ClusterRef(address, connection);
  }

  private static boolean bool(Map<String, String> conf, String key, boolean defaultValue) {
    String raw = conf.get(key);
    if (raw == null) {
      return defaultValue;
    }
    String v = raw.trim().toLowerCase(Locale.ROOT);
    if (v.equals("true") || v.equals("false")) {
      return Boolean.parseBoolean(v);
    }
    throw new IllegalArgumentException(
        "setting " + key + " must be true or false, got '" + raw + "'");
  }

  private static long positive(Map<String, String> conf, String key, long defaultValue) {
    String raw = conf.get(key);
    if (raw == null) {
      return defaultValue;
    }
    try {
      long v = Long.parseLong(raw.trim());
      if (v >= 1) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "setting " + key + " must be a whole number >= 1, got '" + raw + "'");
  }

  @Override
  public String toString() {
    return "YtSettings[proxy="
        + proxy.orElse("<unset>")
        + ", transactional="
        + transactional
        + ", dynBatchSize="
        + dynBatchSize
        + "]";
  }
}
