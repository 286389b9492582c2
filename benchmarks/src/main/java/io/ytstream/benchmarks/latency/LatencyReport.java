package io.ytstream.benchmarks.latency;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Markdown table of a run: per group, each variant's rows and percentiles, then ours against
 * Spark's Kafka source with the same writer, as ratios of figures from the same group, each marked
 * met or not met; and the rows of the results file ({@link #targets}).
 */
final class LatencyReport {

  private LatencyReport() {}

  static String table(List<LatencyBench.Group> groups, LatencyOptions options) {
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "local[%d], %d partitions, writers' flushInterval %d ms, %d run(s) per variant"
                + " (percentiles over the rows of all runs, max = the median of the runs' maxima);"
                + " latency = send time to the return of the writer's append/upsert; ms%n",
            options.cores(),
            options.partitions(),
            options.flushMs(),
            options.repeat()));
    for (LatencyBench.Group g : groups) {
      s.append(String.format(Locale.ROOT, "%n#### %s%n", g.title()));
      s.append(
          String.format(
              Locale.ROOT,
              "load average (1, 5, 15 min) before: %s; after: %s%n%n",
              g.loadBefore(),
              g.loadAfter()));
      s.append("| variant | rows at sink / sent | p50 | p90 | p99 | max | max of each run |\n");
      s.append("|---|---:|---:|---:|---:|---:|---:|\n");
      g.stats()
          .forEach(
              (v, st) ->
                  s.append(
                      String.format(
                          Locale.ROOT,
                          "| %s | %,d / %,d | %s | %s | %s | %s | %s |%n",
                          v.key,
                          st.delivered,
                          st.expected,
                          ms(st.p50),
                          ms(st.p90),
                          ms(st.p99),
                          ms(st.max),
                          maxima(st.runMaxima))));
      ratios(s, g.stats());
    }
    return s.toString();
  }

  /** Each real-time variant of ours against Kafka's, when both ran. */
  private static void ratios(StringBuilder s, Map<Variant, LatencyStats> stats) {
    LatencyStats kafka = stats.get(Variant.KAFKA_RT_APPEND);
    if (kafka != null) {
      boolean header = false;
      for (Variant ours : List.of(Variant.RT_APPEND, Variant.RT_EXACTLY_ONCE)) {
        LatencyStats st = stats.get(ours);
        if (st == null) {
          continue;
        }
        if (!header) {
          s.append("\n| ours ÷ Kafka's | p50 | p99 |\n|---|---:|---:|\n");
          header = true;
        }
        s.append(
            String.format(
                Locale.ROOT,
                "| %s ÷ %s | %.2f | %.2f |%n",
                ours.key,
                Variant.KAFKA_RT_APPEND.key,
                st.p50 / kafka.p50,
                st.p99 / kafka.p99));
      }
    }
    for (Map.Entry<Variant, LatencyStats> e : stats.entrySet()) {
      if (!e.getValue().complete()) {
        s.append(
            String.format(
                Locale.ROOT,
                "%n%s: only %,d of %,d rows reached the sink in time after the window;"
                    + " its percentiles leave the rest out.%n",
                e.getKey().key,
                e.getValue().delivered,
                e.getValue().expected));
      }
    }
  }

  /**
   * The results file's rows: per group, our append variant's p50 and p99 against Kafka's with the
   * same writer (the target: at or below Kafka's).
   */
  static String targets(List<LatencyBench.Group> groups) {
    StringBuilder s = new StringBuilder();
    for (LatencyBench.Group g : groups) {
      LatencyStats ours = g.stats().get(Variant.RT_APPEND);
      LatencyStats kafka = g.stats().get(Variant.KAFKA_RT_APPEND);
      if (ours == null || kafka == null) {
        continue;
      }
      for (String p : List.of("p50", "p99")) {
        double o = p.equals("p50") ? ours.p50 : ours.p99;
        double k = p.equals("p50") ? kafka.p50 : kafka.p99;
        s.append(
            String.format(
                Locale.ROOT,
                "| real-time %s beside Spark's Kafka source (%s) | ≤ Kafka's | %.2f× (%s vs %s ms)"
                    + " | %s |%n",
                p,
                g.title(),
                o / k,
                ms(o),
                ms(k),
                o <= k && ours.complete() ? "met" : "**not met**"));
      }
    }
    return s.toString();
  }

  private static String maxima(double[] maxima) {
    StringBuilder s = new StringBuilder();
    for (double m : maxima) {
      s.append(s.length() == 0 ? "" : ", ").append(ms(m));
    }
    return s.toString();
  }

  /** Milliseconds with the digits that matter at each size. */
  static String ms(double ms) {
    if (Double.isNaN(ms)) {
      return "-";
    }
    if (ms >= 100) {
      return String.format(Locale.ROOT, "%.0f", ms);
    }
    if (ms >= 1) {
      return String.format(Locale.ROOT, "%.1f", ms);
    }
    return String.format(Locale.ROOT, "%.2f", ms);
  }
}
