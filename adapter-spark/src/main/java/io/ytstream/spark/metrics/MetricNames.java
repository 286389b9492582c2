package io.ytstream.spark.metrics;

import io.ytstream.core.model.PartitionId;

/**
 * The names of the lag gauges in the plugin's registry: {@code
 * ytstream.<query>.<queue>.<partition>.lag_rows} (and {@code lag_bytes}, {@code lag_seconds}),
 * where the query is its name, else its id, and the queue is {@code <cluster>:<path>}.
 *
 * <p>Each part keeps only {@code [A-Za-z0-9_]}, anything else becoming {@code _}: Prometheus allows
 * no other character in a name (its servlet sink replaces them the same way), and a dot inside a
 * part would split it in Graphite and JMX trees. So {@code primary://home/q} becomes {@code
 * primary___home_q}; two queues that differ only in such characters share a name, the later
 * source's figures winning.
 */
public final class MetricNames {

  /** The prefix of every gauge this plugin registers. */
  public static final String PREFIX = "ytstream";

  /** The number of {@code yt} sources reporting lag on this driver now. */
  public static final String SOURCES = PREFIX + ".sources";

  public static final String LAG_ROWS = "lag_rows";
  public static final String LAG_BYTES = "lag_bytes";
  public static final String LAG_SECONDS = "lag_seconds";

  private MetricNames() {}

  /** One figure of one partition of a query. */
  public static String partitionGauge(String query, PartitionId partition, String figure) {
    return PREFIX
        + "."
        + part(query)
        + "."
        + part(partition.queue().key())
        + "."
        + partition.index()
        + "."
        + figure;
  }

  /** {@code text} with every character outside {@code [A-Za-z0-9_]} replaced by {@code _}. */
  static String part(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean allowed =
          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
      out.append(allowed ? c : '_');
    }
    return out.toString();
  }
}
