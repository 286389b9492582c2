package io.ytstream.spark.config;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.spark.sql.SparkSession;

/**
 * The session settings ytstream reads ({@code spark.yt.*}, the cluster address in {@code
 * spark.hadoop.yt.proxy}, and the connection settings {@code spark.hadoop.yt.*} for the adapter),
 * captured once on the driver and passed on explicitly.
 */
public record YtSettings(
    Optional<String> proxy,
    Map<String, String> connection,
    boolean transactional,
    int dynBatchSize,
    Duration transactionTimeout,
    long maxRowsPerTabletPerTransaction) {

  public static final String PROXY = "spark.hadoop.yt.proxy";
  public static final String TOKEN = "spark.hadoop.yt.token";
  public static final String TRANSACTIONAL = "spark.yt.streaming.transactional";
  public static final String DYN_BATCH_SIZE = "spark.yt.write.dynBatchSize";
  public static final String TRANSACTION_TIMEOUT = "spark.yt.streaming.transactionTimeoutMs";
  public static final String MAX_ROWS_PER_TABLET = "spark.yt.write.maxRowsPerTabletPerTransaction";

  static final int DEFAULT_DYN_BATCH_SIZE = 50_000;

  /**
   * The session's settings, over the {@code yt.*} keys of the context's Hadoop configuration (e.g.
   * from {@code core-site.xml}), which a session's {@code spark.hadoop.yt.*} overrides.
   */
  public static YtSettings of(SparkSession spark) {
    TreeMap<String, String> conf = new TreeMap<>();
    spark
        .sparkContext()
        .hadoopConfiguration()
        .getPropsWithPrefix("yt.")
        .forEach((k, v) -> conf.put("yt." + k, v));
    conf.putAll(scala.jdk.javaapi.CollectionConverters.asJava(spark.conf().getAll()));
    return of(conf);
  }

  public static YtSettings of(Map<String, String> conf) {
    // Every spark.hadoop.yt.* setting but the address travels on as yt.* (token, timeouts, trust).
    Map<String, String> connection = ClusterRef.connectionSettings(conf);
    return new YtSettings(
        Optional.ofNullable(conf.get(PROXY)).filter(s -> !s.isBlank()),
        connection,
        bool(conf, TRANSACTIONAL, false),
        (int) positive(conf, DYN_BATCH_SIZE, DEFAULT_DYN_BATCH_SIZE),
        Duration.ofMillis(positive(conf, TRANSACTION_TIMEOUT, 30_000)),
        positive(conf, MAX_ROWS_PER_TABLET, 100_000));
  }

  /** The cluster: the option {@code proxy} if given, else {@code spark.hadoop.yt.proxy}. */
  public ClusterRef cluster(YtOptions options) {
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
