package io.ytstream.spark.writers;

import io.ytstream.core.model.YPath;
import io.ytstream.spark.config.ClusterRef;
import io.ytstream.spark.config.YtSettings;
import java.io.Serializable;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.spark.sql.SparkSession;

/**
 * What a ytstream {@code ForeachWriter} carries to executors: only serializable values (the cluster
 * address and connection settings, the output path, the flush policy). {@link #toString} shows no
 * token.
 */
final class ForeachWriterConfig implements Serializable {

  private static final long serialVersionUID = 1L;

  final ClusterRef cluster;
  final String path;
  final long flushIntervalMs;
  final int maxBufferedRows;

  private ForeachWriterConfig(
      ClusterRef cluster, String path, long flushIntervalMs, int maxBufferedRows) {
    this.cluster = cluster;
    this.path = path;
    this.flushIntervalMs = flushIntervalMs;
    this.maxBufferedRows = maxBufferedRows;
  }

  YPath outputPath() {
    return YPath.of(path);
  }

  /**
   * Resolves the builder's values on the driver: a missing proxy or token comes from the active
   * session's {@code spark.hadoop.yt.proxy} and {@code spark.hadoop.yt.token}.
   */
  static ForeachWriterConfig resolve(
      String writer,
      String proxy,
      String token,
      String path,
      Duration flushInterval,
      int maxBufferedRows) {
    if (path == null || path.isBlank()) {
      throw new IllegalArgumentException(
          writer + ": the output table is missing: call path(\"//home/out\") on the builder");
    }
    if (flushInterval.isNegative()) {
      throw new IllegalArgumentException(
          writer
              + ": flushInterval must be 0 or more, got "
              + flushInterval
              + "; use e.g. Duration.ofMillis(5)");
    }
    if (maxBufferedRows < 1) {
      throw new IllegalArgumentException(
          writer + ": maxBufferedRows must be 1 or more, got " + maxBufferedRows);
    }
    scala.Option<SparkSession> active = SparkSession.getActiveSession();
    Optional<YtSettings> session =
        active.isDefined() ? Optional.of(YtSettings.of(active.get())) : Optional.empty();
    String address = proxy;
    if (address == null || address.isBlank()) {
      address =
          session
              .flatMap(YtSettings::proxy)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          writer
                              + ": no cluster: call proxy(\"http://host:port\") on the builder or"
                              + " set spark.hadoop.yt.proxy in the session"));
    }
    Map<String, String> connection =
        new TreeMap<>(session.map(YtSettings::connection).orElse(Map.of()));
    if (token != null) {
      connection.put(ClusterRef.TOKEN_SETTING, token);
    }
    return new ForeachWriterConfig(
        new ClusterRef(address, connection), path, flushInterval.toMillis(), maxBufferedRows);
  }

  @Override
  public String toString() {
    return path + " on " + cluster.address();
  }
}
