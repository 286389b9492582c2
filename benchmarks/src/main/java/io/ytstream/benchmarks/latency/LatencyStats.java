package io.ytstream.benchmarks.latency;

import java.util.Arrays;
import java.util.List;

/**
 * The latencies of one variant in one run or several: how many rows of the windows reached the sink
 * out of how many were sent, nearest-rank percentiles in milliseconds over all those rows, the
 * maximum, and the collection pauses of the JVM during the windows. Over several runs the max is
 * the median of the runs' maxima ({@link #runMaxima} has each): one run's max is one row, its worst
 * batch boundary or pause, and varies far more between runs than the percentiles do. The gaps of
 * the real-time batch boundaries ({@link BoundaryGaps}), one figure per boundary, are kept from
 * every run.
 */
final class LatencyStats {

  final long expected;
  final long delivered;
  final double p50;
  final double p90;
  final double p99;
  final double max;
  final double[] runMaxima;
  final int gcPauses;
  final double gcLongestMs;
  final double gcTotalMs;

  /**
   * The gap of each batch boundary in the windows, in milliseconds, sorted (none for micro-batch).
   */
  final double[] boundaryGapsMs;

  /** The same gaps per run, in the order of the runs (one row for a single run). */
  final double[][] runGapsMs;

  private final long[] sortedMicros;

  LatencyStats(long expected, long[] sortedMicros) {
    this(expected, sortedMicros, List.of(), new double[0]);
  }

  /**
   * One run: its window's latencies (sorted, microseconds), the pauses in its window and the gaps
   * of its batch boundaries (milliseconds).
   */
  LatencyStats(
      long expected, long[] sortedMicros, List<GcPauses.Pause> pauses, double[] boundaryGapsMs) {
    this(
        expected,
        sortedMicros.clone(),
        new double[] {maxMs(sortedMicros)},
        pauses.size(),
        pauses.stream().mapToLong(GcPauses.Pause::micros).max().orElse(0) / 1000.0,
        pauses.stream().mapToLong(GcPauses.Pause::micros).sum() / 1000.0,
        new double[][] {boundaryGapsMs});
  }

  private LatencyStats(
      long expected,
      long[] sortedMicros,
      double[] runMaxima,
      int gcPauses,
      double gcLongestMs,
      double gcTotalMs,
      double[][] runGapsMs) {
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
    this.gcPauses = gcPauses;
    this.gcLongestMs = gcLongestMs;
    this.gcTotalMs = gcTotalMs;
    this.runGapsMs = new double[runGapsMs.length][];
    for (int i = 0; i < runGapsMs.length; i++) {
      this.runGapsMs[i] = runGapsMs[i].clone();
      Arrays.sort(this.runGapsMs[i]);
    }
    this.boundaryGapsMs =
        Arrays.stream(this.runGapsMs).flatMapToDouble(Arrays::stream).sorted().toArray();
  }

  /** Several runs of one variant as one: rows pooled, max the median (lower) of the maxima. */
  static LatencyStats pooled(List<LatencyStats> runs) {
    if (runs.size() == 1) {
      return runs.get(0);
    }
    long expected = 0;
    int rows = 0;
    int pauses = 0;
    double longest = 0;
    double total = 0;
    double[] maxima = new double[runs.size()];
    for (int i = 0; i < runs.size(); i++) {
      LatencyStats r = runs.get(i);
      expected += r.expected;
      rows += r.sortedMicros.length;
      pauses += r.gcPauses;
      longest = Math.max(longest, r.gcLongestMs);
      total += r.gcTotalMs;
      maxima[i] = r.max;
    }
    long[] all = new long[rows];
    int at = 0;
    for (LatencyStats r : runs) {
      System.arraycopy(r.sortedMicros, 0, all, at, r.sortedMicros.length);
      at += r.sortedMicros.length;
    }
    Arrays.sort(all);
    double[][] gaps =
        runs.stream().flatMap(r -> Arrays.stream(r.runGapsMs)).toArray(double[][]::new);
    return new LatencyStats(expected, all, maxima, pauses, longest, total, gaps);
  }

  private static double maxMs(long[] sorted) {
    return sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1] / 1000.0;
  }

  /** Nearest rank: the smallest value with at least {@code pct} % of the values at or below it. */
  static double percentile(long[] sorted, double pct) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    return sorted[nearestRank(sorted.length, pct)] / 1000.0;
  }

  /** The index of the smallest of {@code n} sorted values with {@code pct} % at or below it. */
  private static int nearestRank(int n, double pct) {
    int rank = (int) Math.ceil(pct / 100.0 * n);
    return Math.max(0, Math.min(n - 1, rank - 1));
  }

  /**
   * The boundary gap at {@code pct} percent of the boundaries (nearest rank), NaN without any: the
   * median says what a boundary costs, beyond the one worst boundary the max shows.
   */
  double boundaryGapMs(double pct) {
    if (boundaryGapsMs.length == 0) {
      return Double.NaN;
    }
    return boundaryGapsMs[nearestRank(boundaryGapsMs.length, pct)];
  }

  /** The latency in milliseconds at fraction {@code q} (0..1) of the rows. */
  double quantileMs(double q) {
    return percentile(sortedMicros, q * 100);
  }

  boolean complete() {
    return expected > 0 && delivered >= expected;
  }
}
