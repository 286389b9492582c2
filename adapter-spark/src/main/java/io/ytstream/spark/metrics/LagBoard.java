package io.ytstream.spark.metrics;

import io.ytstream.application.MeasureLag;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.SparkContext;

/**
 * Where the {@code yt} sources of this driver leave their latest lag per partition for {@link
 * YtMetricsPlugin}'s gauges. The sources' {@code metrics} and {@code stop} are driver calls, and
 * the plugin's driver side runs in the same JVM, so a JVM-wide board joins them.
 *
 * <p>Without the plugin nothing is kept: {@link #publish} returns at once.
 */
public final class LagBoard {

  /** Spark's local property on a query's stream execution thread: the query's id. */
  static final String QUERY_ID_PROPERTY = "sql.streaming.queryId";

  /** A source's latest lag, with the query it belongs to. */
  record Publication(long source, String queryId, List<MeasureLag.PartitionLag> partitions) {
    Publication {
      Objects.requireNonNull(queryId, "queryId");
      partitions = List.copyOf(partitions);
    }
  }

  /** Told after each change of the board. */
  interface Listener {
    void changed();
  }

  private static final AtomicLong SOURCE_IDS = new AtomicLong();
  // By source id: the order decides which source wins a name two of them map to (the later one).
  private static final ConcurrentSkipListMap<Long, Publication> BY_SOURCE =
      new ConcurrentSkipListMap<>();
  private static volatile Listener listener;

  private LagBoard() {}

  /** A new source's key on the board. */
  public static long newSource() {
    return SOURCE_IDS.incrementAndGet();
  }

  /** Whether a plugin reads the board (else publishing is pointless). */
  public static boolean enabled() {
    return listener != null;
  }

  /**
   * {@code source}'s latest lag, for the query whose stream execution thread calls this (Spark's
   * {@code metrics} call); nothing outside a query's thread or without the plugin.
   */
  public static void publish(long source, List<MeasureLag.PartitionLag> partitions) {
    Listener l = listener;
    if (l == null) {
      return;
    }
    String queryId = SparkContext.getOrCreate().getLocalProperty(QUERY_ID_PROPERTY);
    if (queryId != null) {
      publish(source, queryId, partitions);
    }
  }

  /** {@code source}'s latest lag for query {@code queryId}. */
  static void publish(long source, String queryId, List<MeasureLag.PartitionLag> partitions) {
    Listener l = listener;
    if (l == null) {
      return;
    }
    BY_SOURCE.put(source, new Publication(source, queryId, partitions));
    l.changed();
  }

  /** {@code source} stopped: its gauges go. */
  public static void withdraw(long source) {
    if (BY_SOURCE.remove(source) != null) {
      Listener l = listener;
      if (l != null) {
        l.changed();
      }
    }
  }

  /** Every source's latest lag, in the order the sources were made. */
  static List<Publication> publications() {
    return new ArrayList<>(BY_SOURCE.values());
  }

  static void attach(Listener l) {
    listener = Objects.requireNonNull(l, "listener");
  }

  /** The plugin stops: what the board holds goes with it. */
  static void detach(Listener l) {
    if (listener == l) {
      listener = null;
      BY_SOURCE.clear();
    }
  }
}
