package io.ytstream.benchmarks.latency;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Send-to-sink latencies per output table, in this JVM. {@link TimedConnector} reports each row it
 * wrote (its {@code sent_us} and the time the write returned); only rows sent inside the measured
 * window of the table count. Thread-safe: writer flush threads of several tasks report at once.
 */
public final class LatencyRecorder {

  /** The column holding the send time (microseconds of {@link LatencyClock}). */
  public static final String SENT_COLUMN = "sent_us";

  private static final Map<String, LatencyRecorder> BY_TABLE = new ConcurrentHashMap<>();

  private volatile long fromMicros = Long.MAX_VALUE;
  private volatile long toMicros = Long.MAX_VALUE;
  private long[] latencies = new long[1024];
  private int count;
  private long writes;

  private LatencyRecorder() {}

  /** The recorder of {@code table}, created on first use. */
  public static LatencyRecorder of(String table) {
    return BY_TABLE.computeIfAbsent(table, t -> new LatencyRecorder());
  }

  /** Null when nothing was ever written to {@code table} through {@link TimedConnector}. */
  static LatencyRecorder existing(String table) {
    return BY_TABLE.get(table);
  }

  static void forget(String table) {
    BY_TABLE.remove(table);
  }

  /** Counts rows sent in {@code [fromMicros, toMicros)} from now on. */
  synchronized void window(long fromMicros, long toMicros) {
    this.toMicros = toMicros;
    this.fromMicros = fromMicros;
  }

  /** One write of rows that became durable at {@code sinkMicros}. */
  synchronized void written(long[] sentMicros, int n, long sinkMicros) {
    writes++;
    long from = fromMicros;
    long to = toMicros;
    for (int i = 0; i < n; i++) {
      long sent = sentMicros[i];
      if (sent >= from && sent < to) {
        if (count == latencies.length) {
          latencies = Arrays.copyOf(latencies, count * 2);
        }
        latencies[count++] = sinkMicros - sent;
      }
    }
  }

  /** Rows of the window written so far. */
  synchronized int count() {
    return count;
  }

  /** Write requests seen (inside and outside the window). */
  synchronized long writes() {
    return writes;
  }

  /** The window's latencies in microseconds, sorted. */
  synchronized long[] sortedMicros() {
    long[] copy = Arrays.copyOf(latencies, count);
    Arrays.sort(copy);
    return copy;
  }
}
