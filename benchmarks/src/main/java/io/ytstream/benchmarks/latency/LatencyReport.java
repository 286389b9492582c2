package io.ytstream.benchmarks.latency;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Markdown table of a run: per group, each variant's rows and percentiles, then the issue's
 * targets as ratios of figures from the same group, each marked met or not met.
 */
final class LatencyReport {

  private LatencyReport() {}

  static String table(List<LatencyBench.Group> groups, LatencyOptions options) {
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "local[%d], %d partitions, writers' flushInterval %d ms, %d run(s) per variant"
                + " (percentiles over the rows of all runs, max = the median of the runs' maxima,"
                + " boundary gaps = the slowest row sent within %d ms of each real-time batch"
                + " end, over the boundaries of all runs); latency = send time to the return of"
                + " the writer's append/upsert; ms%n",
            options.cores(),
            options.partitions(),
            options.flushMs(),
            options.repeat(),
            BoundaryGaps.HALF_MICROS / 1000));
    for (LatencyBench.Group g : groups) {
      s.append(String.format(Locale.ROOT, "%n#### %s%n", g.title()));
      s.append(
          String.format(
              Locale.ROOT,
              "load average (1, 5, 15 min) before: %s; after: %s%n%n",
              g.loadBefore(),
              g.loadAfter()));
      s.append(
          "| variant | rows at sink / sent | p50 | p90 | p99 | max | max of each run | boundary"
              + " gaps: median, p90, max (n) | GC pauses in the windows: n, longest, total |\n");
      s.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      g.stats()
          .forEach(
              (v, st) ->
                  s.append(
                      String.format(
                          Locale.ROOT,
                          "| %s | %,d / %,d | %s | %s | %s | %s | %s | %s | %d, %s, %s |%n",
                          v.key,
                          st.delivered,
                          st.expected,
                          LatencyChart.label(st.p50),
                          LatencyChart.label(st.p90),
                          LatencyChart.label(st.p99),
                          LatencyChart.label(st.max),
                          maxima(st.runMaxima),
                          gaps(st),
                          st.gcPauses,
                          LatencyChart.label(st.gcLongestMs),
                          LatencyChart.label(st.gcTotalMs))));
      targets(s, g.stats());
    }
    return s.toString();
  }

  /**
   * Each variant of ours against the limit with its own writer ({@link Variant#limit}), or against
   * the append writer's limit when that one did not run (the row names which); the control, when it
   * ran, against {@code bare-rt} by the same targets.
   */
  private static void targets(StringBuilder s, Map<Variant, LatencyStats> stats) {
    LatencyStats batch = stats.get(Variant.MICRO_BATCH);
    boolean header = false;
    for (Variant rt :
        List.of(Variant.RT_EXACTLY_ONCE, Variant.RT_APPEND, Variant.BARE_RT_CONTROL)) {
      LatencyStats ours = stats.get(rt);
      Variant limit = stats.containsKey(rt.limit()) ? rt.limit() : Variant.BARE_RT;
      LatencyStats bare = stats.get(limit);
      if (ours == null || (bare == null && batch == null)) {
        continue;
      }
      if (!header) {
        s.append(
            "\n| target | ratio | 90 % interval (rounds and boundaries resampled) | limit | |\n"
                + "|---|---:|---:|---:|---|\n");
        header = true;
      }
      if (bare != null) {
        String b = limit.key;
        row(s, rt.key + " p50 / " + b + " p50", ours.p50 / bare.p50, 2.0);
        row(s, rt.key + " p99 / " + b + " p99", ours.p99 / bare.p99, 1.5);
        row(s, rt.key + " max / " + b + " max (batch-boundary gap)", ours.max / bare.max, 1.0);
        if (ours.boundaryGapsMs.length > 0 && bare.boundaryGapsMs.length > 0) {
          double[] interval = GapRatioInterval.of(ours.runGapsMs, bare.runGapsMs, 0.9);
          row(
              s,
              String.format(
                  Locale.ROOT,
                  "%s median boundary gap / %s's (%d and %d boundaries)",
                  rt.key,
                  b,
                  ours.boundaryGapsMs.length,
                  bare.boundaryGapsMs.length),
              ours.boundaryGapMs(50) / bare.boundaryGapMs(50),
              interval,
              1.0);
        }
      }
      if (batch != null) {
        row(s, rt.key + " p99 / micro-batch p99", ours.p99 / batch.p99, 0.25);
      }
    }
    for (Map.Entry<Variant, LatencyStats> e : stats.entrySet()) {
      if (!e.getValue().complete()) {
        s.append(
            String.format(
                Locale.ROOT,
                "%n%s: only %,d of %,d rows reached the sink within %d s after the window;"
                    + " its percentiles leave the rest out.%n",
                e.getKey().key,
                e.getValue().delivered,
                e.getValue().expected,
                30));
      }
    }
  }

  private static String gaps(LatencyStats st) {
    if (st.boundaryGapsMs.length == 0) {
      return "–";
    }
    return String.format(
        Locale.ROOT,
        "%s, %s, %s (%d)",
        LatencyChart.label(st.boundaryGapMs(50)),
        LatencyChart.label(st.boundaryGapMs(90)),
        LatencyChart.label(st.boundaryGapMs(100)),
        st.boundaryGapsMs.length);
  }

  private static String maxima(double[] maxima) {
    StringBuilder s = new StringBuilder();
    for (double m : maxima) {
      s.append(s.length() == 0 ? "" : ", ").append(LatencyChart.label(m));
    }
    return s.toString();
  }

  private static void row(StringBuilder s, String what, double ratio, double limit) {
    row(s, what, ratio, null, limit);
  }

  /** A target's row; {@code interval} (low, high) where the ratio's uncertainty is known. */
  private static void row(
      StringBuilder s, String what, double ratio, double[] interval, double limit) {
    s.append(
        String.format(
            Locale.ROOT,
            "| %s | %.2f | %s | ≤ %.2f | %s |%n",
            what,
            ratio,
            interval == null
                ? ""
                : String.format(Locale.ROOT, "%.2f–%.2f", interval[0], interval[1]),
            limit,
            Double.isNaN(ratio) ? "no figure" : ratio <= limit ? "met" : "not met"));
  }
}
