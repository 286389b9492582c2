package io.ytstream.benchmarks.latency;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Markdown table of a run: per group, each variant's rows and percentiles over all its runs,
 * then each run's own, then our writers against Spark's Kafka source with the append writer, as
 * ratios of figures from the same group (pooled, and run by run within a round); and the rows of
 * the results file ({@link #targets}), each marked met or not met.
 */
final class LatencyReport {

  private LatencyReport() {}

  static String table(
      List<LatencyBench.Group> groups, LatencyOptions options, String sparkVersion) {
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "Spark %s, local[%d], %d partitions, writers' flushInterval %d ms, %d run(s) per variant"
                + " (percentiles over the rows of all runs, max = the median of the runs' maxima);"
                + " latency = send time to the return of the writer's append/upsert; ms%n",
            sparkVersion,
            options.cores(),
            options.partitions(),
            options.flushMs(),
            options.repeat()));
    if (options.variants().stream().anyMatch(Variant::stateful)) {
      s.append(
          String.format(
              Locale.ROOT,
              "Stateful variants: groupBy(id %% %d).count() with the latest sent_us counted,"
                  + " %d shuffle partitions; each update row is timed from the send of the row"
                  + " that made it to the return of YtUpsertForeachWriter's upsert%n",
              options.keys(),
              LatencyBench.SHUFFLE_PARTITIONS));
    }
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
      if (g.runs().values().stream().anyMatch(l -> l.size() > 1)) {
        perRun(s, g.runs());
      }
      ratios(s, g);
    }
    return s.toString();
  }

  /** Our writers, each held against Kafka's source with the append writer: the targets' rows. */
  static final List<Variant> OURS = List.of(Variant.RT_APPEND, Variant.RT_EXACTLY_ONCE);

  /**
   * Every variant of ours held against Kafka's source doing the same work ({@link
   * Variant#kafkaPeer}) in the table: the writers, and the stateful count beside Kafka's (reported,
   * no target).
   */
  static final List<Variant> COMPARED =
      List.of(Variant.RT_APPEND, Variant.RT_EXACTLY_ONCE, Variant.RT_COUNT);

  /** Targets: our p50 at most this share of Kafka's, our p99 at most Kafka's. */
  static final double P50_BOUND = 0.75;

  static final double P99_BOUND = 1.0;

  /** Each run's own figures, in the order of the rounds. */
  private static void perRun(StringBuilder s, Map<Variant, List<LatencyStats>> runs) {
    s.append("\nEach run:\n\n| variant | run | rows at sink / sent | p50 | p99 | max |\n");
    s.append("|---|---:|---:|---:|---:|---:|\n");
    runs.forEach(
        (v, list) -> {
          for (int i = 0; i < list.size(); i++) {
            LatencyStats st = list.get(i);
            s.append(
                String.format(
                    Locale.ROOT,
                    "| %s | %d | %,d / %,d | %s | %s | %s |%n",
                    v.key,
                    i + 1,
                    st.delivered,
                    st.expected,
                    ms(st.p50),
                    ms(st.p99),
                    ms(st.max)));
          }
        });
  }

  /** Each real-time variant of ours against Kafka's doing the same work, when both ran. */
  private static void ratios(StringBuilder s, LatencyBench.Group g) {
    Map<Variant, LatencyStats> stats = g.stats();
    boolean header = false;
    for (Variant ours : COMPARED) {
      LatencyStats st = stats.get(ours);
      LatencyStats peer = stats.get(ours.kafkaPeer());
      if (st == null || peer == null) {
        continue;
      }
      if (!header) {
        s.append(
            "\n| ours ÷ Kafka's | p50, pooled | p50, per run | p99, pooled | p99, per run |\n"
                + "|---|---:|---:|---:|---:|\n");
        header = true;
      }
      s.append(
          String.format(
              Locale.ROOT,
              "| %s ÷ %s | %.2f | %s | %.2f | %s |%n",
              ours.key,
              ours.kafkaPeer().key,
              st.p50 / peer.p50,
              spread(perRunRatios(g, ours, true)),
              st.p99 / peer.p99,
              spread(perRunRatios(g, ours, false))));
    }
    LatencyStats kafka = stats.get(Variant.KAFKA_RT_APPEND);
    if (kafka != null) {
      controls(s, g, kafka);
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
   * The controls beside Kafka's: each over Kafka's p50 and p99 (the least ratio a variant with that
   * writer can reach, as every variant pays the writer's part on top of its source's), and each
   * variant's source part of the p50: its p50 less its writer's control's, pooled.
   */
  private static void controls(StringBuilder s, LatencyBench.Group g, LatencyStats kafka) {
    Map<Variant, LatencyStats> stats = g.stats();
    boolean any = false;
    for (Variant control : List.of(Variant.FLOOR_APPEND, Variant.FLOOR_EXACTLY_ONCE)) {
      LatencyStats st = stats.get(control);
      if (st == null) {
        continue;
      }
      if (!any) {
        s.append(
            "\n| control (writer alone) ÷ Kafka's: the least ratio reachable | p50, pooled |"
                + " p50, per run | p99, pooled | p99, per run |\n|---|---:|---:|---:|---:|\n");
        any = true;
      }
      s.append(
          String.format(
              Locale.ROOT,
              "| %s ÷ %s | %.2f | %s | %.2f | %s |%n",
              control.key,
              Variant.KAFKA_RT_APPEND.key,
              st.p50 / kafka.p50,
              spread(perRunRatios(g, control, true)),
              st.p99 / kafka.p99,
              spread(perRunRatios(g, control, false))));
    }
    if (!any) {
      return;
    }
    StringBuilder parts = new StringBuilder();
    for (Map.Entry<Variant, LatencyStats> e : stats.entrySet()) {
      Variant v = e.getKey();
      LatencyStats control = controlOf(g, v);
      if (v.floor() || v.handoff() || v.stateful() || control == null) {
        continue;
      }
      parts.append(
          String.format(
              Locale.ROOT,
              "%s%s %s ms",
              parts.length() == 0 ? "" : ", ",
              v.key,
              ms(e.getValue().p50 - control.p50)));
    }
    s.append(
        String.format(
            Locale.ROOT,
            "%nThe source's part of the p50 (the variant's less its writer's control's, pooled): %s.%n",
            parts));
  }

  /** The control of {@code v}'s writer in {@code g}: its own, else the other one; null if none. */
  static LatencyStats controlOf(LatencyBench.Group g, Variant v) {
    LatencyStats own = g.stats().get(v.floorOf());
    if (own != null) {
      return own;
    }
    LatencyStats append = g.stats().get(Variant.FLOOR_APPEND);
    return append != null ? append : g.stats().get(Variant.FLOOR_EXACTLY_ONCE);
  }

  /** The variant whose control figures {@link #controlOf} takes for {@code v}, or null. */
  static Variant controlVariant(LatencyBench.Group g, Variant v) {
    if (g.runs().containsKey(v.floorOf())) {
      return v.floorOf();
    }
    if (g.runs().containsKey(Variant.FLOOR_APPEND)) {
      return Variant.FLOOR_APPEND;
    }
    return g.runs().containsKey(Variant.FLOOR_EXACTLY_ONCE) ? Variant.FLOOR_EXACTLY_ONCE : null;
  }

  /**
   * Run i of {@code ours} over run i of Kafka's doing the same work (the same round), p50 or p99;
   * as many as both ran.
   */
  static double[] perRunRatios(LatencyBench.Group g, Variant ours, boolean p50) {
    List<LatencyStats> o = g.runs().get(ours);
    List<LatencyStats> k = g.runs().get(ours.kafkaPeer());
    if (o == null || k == null) {
      return new double[0];
    }
    double[] r = new double[Math.min(o.size(), k.size())];
    for (int i = 0; i < r.length; i++) {
      r[i] = p50 ? o.get(i).p50 / k.get(i).p50 : o.get(i).p99 / k.get(i).p99;
    }
    return r;
  }

  /**
   * The results file's rows: per group and writer of ours, p50 and p99 against Kafka's source with
   * the append writer, as the median [min–max] of the per-run ratios; met when the median is within
   * the bound and every run of ours delivered every row.
   */
  static String targets(List<LatencyBench.Group> groups) {
    StringBuilder s = new StringBuilder();
    for (LatencyBench.Group g : groups) {
      LatencyStats kafka = g.stats().get(Variant.KAFKA_RT_APPEND);
      for (Variant v : OURS) {
        LatencyStats ours = g.stats().get(v);
        if (ours == null || kafka == null) {
          continue;
        }
        boolean complete = g.runs().get(v).stream().allMatch(LatencyStats::complete);
        for (boolean p50 : new boolean[] {true, false}) {
          double[] ratios = perRunRatios(g, v, p50);
          double bound = p50 ? P50_BOUND : P99_BOUND;
          s.append(
              String.format(
                  Locale.ROOT,
                  "| real-time %s, %s beside Spark's Kafka source (%s) | %s | %s× per run (%s vs"
                      + " %s ms, pooled) | %s |%n",
                  p50 ? "p50" : "p99",
                  v.key,
                  g.title(),
                  p50 ? "≤ 0.75 × Kafka's" : "≤ Kafka's",
                  spread(ratios),
                  ms(p50 ? ours.p50 : ours.p99),
                  ms(p50 ? kafka.p50 : kafka.p99),
                  verdict(g, v, p50, ratios, bound, complete)));
        }
      }
    }
    return s.toString();
  }

  /**
   * Met, or not met; when not met and the writer's control ran, what it allows: "bounded by the
   * control" when the writer alone is already over the bound (no source can meet it with this
   * writer), else how far the control stays under it (the gap is the source's).
   */
  static String verdict(
      LatencyBench.Group g,
      Variant v,
      boolean p50,
      double[] ratios,
      double bound,
      boolean complete) {
    if (!complete) {
      return "**not met** (rows missing at the sink)";
    }
    if (median(ratios) <= bound) {
      return "met";
    }
    Variant control = controlVariant(g, v);
    if (control == null) {
      return "**not met**";
    }
    double[] floor = perRunRatios(g, control, p50);
    LatencyStats c = g.stats().get(control);
    LatencyStats ours = g.stats().get(v);
    String figures =
        String.format(
            Locale.ROOT,
            "the writer alone (%s, no source) %s ms, %s× Kafka's; our source's part %s ms",
            control.key,
            ms(p50 ? c.p50 : c.p99),
            spread(floor),
            ms(p50 ? ours.p50 - c.p50 : ours.p99 - c.p99));
    if (median(floor) > bound) {
      return "**not met**, bounded by the control: "
          + figures
          + String.format(
              Locale.ROOT,
              "; the best reachable ratio with this writer is %.2f×, over the %.2f×",
              median(floor),
              bound);
    }
    return "**not met**; the control allows it: " + figures;
  }

  /** The median (the mean of the middle two for an even count); NaN for none. */
  static double median(double[] values) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** {@code median [min–max]} of ratios, or the one value. */
  static String spread(double[] values) {
    if (values.length == 0) {
      return "-";
    }
    if (values.length == 1) {
      return String.format(Locale.ROOT, "%.2f", values[0]);
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return String.format(
        Locale.ROOT, "%.2f [%.2f–%.2f]", median(values), sorted[0], sorted[sorted.length - 1]);
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
