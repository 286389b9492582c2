package io.ytstream.benchmarks.latency;

import java.util.Arrays;
import java.util.List;

/**
 * The latencies of one variant in one run or several: how many rows of the windows reached the sink
 * out of how many were sent, nearest-rank percentiles in milliseconds over all those rows, and the
 * maximum. Over several runs the max is the median of the runs' maxima ({@link #runMaxima} has
 * each): one run's max is one row, and varies far more between runs than the percentiles do.
 */
final class LatencyStats {

  final long expected;
  final long delivered;
  final double p50;
  final double p90;
  final double p99;
  final double max;
  final double[] runMaxima;

  private final long[] sortedMicros;

  /** One run: its window's latencies, sorted, in microseconds. */
  LatencyStats(long expected, long[] sortedMicros) {
    this(expected, sortedMicros.clone(), new double[] {maxMs(sortedMicros)});
  }

  private LatencyStats(long expected, long[] sortedMicros, double[] runMaxima) {
    this.expected = expected;
    this.delivered = sortedMicros.length;
    this.sortedMicros = sortedMicros;
    this.p50 = percentile(sortedMicros, 50);
    this.p90 = percentile(sortedMicros, 90);
    this.p99 = percentile(sortedMicros, 99);
    this.runMaxima = runMaxima;
    double[] sorted = runMaxima.clone();
    Arrays.sort(sorted);
    this.max = sorted.length == 0 ? Double.NaN : sorted[(sorted.length - 1) / 2];
  }

  /** Several runs of one variant as one: rows pooled, max the median (lower) of the maxima. */
  static LatencyStats pooled(List<LatencyStats> runs) {
    if (runs.size() == 1) {
      return runs.get(0);
    }
    long expected = 0;
    int rows = 0;
    double[] maxima = new double[runs.size()];
    for (int i = 0; i < runs.size(); i++) {
      expected += runs.get(i).expected;
      rows += runs.get(i).sortedMicros.length;
      maxima[i] = runs.get(i).max;
    }
    long[] all = new long[rows];
    int at = 0;
    for (LatencyStats r : runs) {
      System.arraycopy(r.sortedMicros, 0, all, at, r.sortedMicros.length);
      at += r.sortedMicros.length;
    }
    Arrays.sort(all);
    return new LatencyStats(expected, all, maxima);
  }

  private static double maxMs(long[] sorted) {
    return sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1] / 1000.0;
  }

  /** Nearest rank: the smallest value with at least {@code pct} % of the values at or below it. */
  static double percentile(long[] sorted, double pct) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(pct / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1000.0;
  }

  boolean complete() {
    return expected > 0 && delivered >= expected;
  }
}
