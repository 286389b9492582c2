package io.ytstream.benchmarks.latency;

/**
 * The latencies of one variant: how many rows of the window reached the sink out of how many were
 * sent, and nearest-rank percentiles in milliseconds.
 */
final class LatencyStats {

  final long expected;
  final long delivered;
  final double p50;
  final double p90;
  final double p99;
  final double max;
  private final long[] sortedMicros;

  LatencyStats(long expected, long[] sortedMicros) {
    this.expected = expected;
    this.delivered = sortedMicros.length;
    this.sortedMicros = sortedMicros.clone();
    this.p50 = percentile(sortedMicros, 50);
    this.p90 = percentile(sortedMicros, 90);
    this.p99 = percentile(sortedMicros, 99);
    this.max =
        sortedMicros.length == 0 ? Double.NaN : sortedMicros[sortedMicros.length - 1] / 1000.0;
  }

  /** Nearest rank: the smallest value with at least {@code pct} % of the values at or below it. */
  static double percentile(long[] sorted, double pct) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(pct / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1000.0;
  }

  /** The latency in milliseconds at fraction {@code q} (0..1) of the rows. */
  double quantileMs(double q) {
    return percentile(sortedMicros, q * 100);
  }

  boolean complete() {
    return expected > 0 && delivered >= expected;
  }
}
