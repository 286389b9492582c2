package io.ytstream.benchmarks.spark;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;

/**
 * Runs the Spark benchmarks (read path, delivery modes, per-batch overhead, memory) in one JVM and
 * one session, the variants of a harness side by side in every round, and prints the table with
 * each target marked met or not met; the table goes to {@code <out>/spark-table.txt}, the targets
 * of the results file to {@code <out>/targets.md}. See {@link SparkBenchOptions#USAGE} and
 * benchmarks/README.md.
 *
 * <pre>
 * java -Xmx3g &lt;Spark's add-opens&gt; -cp benchmarks.jar:&lt;spark-classpath.txt&gt; \
 *     io.ytstream.benchmarks.spark.SparkBench --runs 3
 * </pre>
 */
public final class SparkBench {

  private final BenchContext ctx;
  private final SparkBenchOptions options;
  private final PrintStream out;

  /** Per harness: variant name -> samples over the measured rounds. */
  final Map<String, Samples> throughput = new LinkedHashMap<>();

  final Map<String, Samples> throughputRatio = new LinkedHashMap<>();

  /** The read path's control ({@link WireControl}): rows/s of the wire alone, each side. */
  final Map<String, Samples> wireControl = new LinkedHashMap<>();

  final Map<String, Samples> modes = new LinkedHashMap<>();
  final Map<String, Samples> modeRatio = new LinkedHashMap<>();

  /** Per mode: this JVM's CPU µs per row (the server runs in a JVM of its own). */
  final Map<String, Samples> modeCpu = new LinkedHashMap<>();

  final Map<String, Samples> modeCpuRatio = new LinkedHashMap<>();
  final Map<String, Samples> modeServerCpu = new LinkedHashMap<>();
  final Map<String, Samples> modeServerCpuRatio = new LinkedHashMap<>();
  // The idempotent receiver's rows/s as the cores allow them (cpuAllowedRatio).
  private Samples idempotentAllowed;

  /** Every mode's CPU per row at most this many times at-least-once's. */
  static final double MODE_CPU_TARGET = 1.25;

  final Map<String, Samples> overhead = new LinkedHashMap<>();
  final Map<String, Samples> overheadRatio = new LinkedHashMap<>();
  final List<BacklogBench.Outcome> backlog = new ArrayList<>();

  /** The wire ratio the server side's cost alone allows: 1 / (1 + in-memory / server side). */
  static final String SERVER_BOUND = "wire bound by the server side";

  /**
   * The wire ratio both sides' costs predict: 1 / (1 + in-memory / server + in-memory / client).
   */
  static final String PREDICTED = "wire predicted by both sides";

  SparkBench(BenchContext ctx) {
    this.ctx = ctx;
    this.options = ctx.options;
    this.out = ctx.out;
  }

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    SparkBenchOptions options;
    try {
      options = SparkBenchOptions.parse(args);
    } catch (IllegalArgumentException e) {
      out.println(e.getMessage());
      System.exit(2);
      return;
    }
    SparkSession spark = BenchSession.getOrCreate();
    int code = 0;
    try (BenchContext ctx = new BenchContext(spark, options, out)) {
      SparkBench bench = new SparkBench(ctx);
      bench.runAll();
      String table = bench.table();
      Files.createDirectories(options.out());
      Files.writeString(options.out().resolve("spark-table.txt"), table, StandardCharsets.UTF_8);
      Files.writeString(
          options.out().resolve("targets.md"), bench.targets(), StandardCharsets.UTF_8);
      out.println();
      out.print(table);
    } catch (Exception e) {
      out.println("spark benchmarks failed: " + e);
      e.printStackTrace(out);
      code = 1;
    } finally {
      spark.stop();
    }
    System.exit(code);
  }

  void runAll() throws Exception {
    if (options.runs(SparkBenchOptions.READ_PATH)) {
      ThroughputBench bench = new ThroughputBench(ctx);
      bench.setUp();
      rounds("read path", bench::round, throughput);
      bench.tearDown();
      for (String control : WireControl.NAMES) {
        wireControl.put(control, throughput.remove(control));
      }
      ratios(throughput, ThroughputBench.BARE, throughputRatio);
      Samples wire = new Samples();
      Samples http = throughput.get(ThroughputBench.YT_HTTP);
      Samples memory = throughput.get(ThroughputBench.YT_MEMORY);
      for (int i = 0; i < http.size(); i++) {
        wire.add(http.get(i) / memory.get(i));
      }
      throughputRatio.put("wire", wire);
      // The control's cost model: per row, the HTTP variant pays the in-memory variant's work
      // plus the server side's and the client side's (core-seconds per row = cores / rows/s).
      Samples server = wireControl.get(WireControl.SERVER);
      Samples client = wireControl.get(WireControl.CLIENT);
      Samples serverBound = new Samples();
      Samples predicted = new Samples();
      for (int i = 0; i < http.size(); i++) {
        double m = memory.get(i);
        serverBound.add(1 / (1 + m / server.get(i)));
        predicted.add(1 / (1 + m / server.get(i) + m / client.get(i)));
      }
      throughputRatio.put(SERVER_BOUND, serverBound);
      throughputRatio.put(PREDICTED, predicted);
    }
    if (options.runs(SparkBenchOptions.MODES)) {
      try (ModeBench bench = new ModeBench(ctx)) {
        rounds("delivery modes", bench::round, modes);
      }
      for (String mode : ModeBench.VARIANTS) {
        modeCpu.put(mode, modes.remove(mode + ModeBench.CPU));
        modeServerCpu.put(mode, modes.remove(mode + ModeBench.SERVER_CPU));
      }
      ratios(modes, ModeBench.AT_LEAST_ONCE, modeRatio);
      ratios(modeCpu, ModeBench.AT_LEAST_ONCE, modeCpuRatio);
      ratios(modeServerCpu, ModeBench.AT_LEAST_ONCE, modeServerCpuRatio);
      idempotentAllowed = cpuAllowedRatio(ModeBench.IDEMPOTENT);
    }
    if (options.runs(SparkBenchOptions.BATCH_OVERHEAD)) {
      BatchOverheadBench bench = new BatchOverheadBench(ctx);
      bench.setUp();
      rounds("per-batch overhead", bench::round, overhead);
      bench.tearDown();
      ratios(overhead, BatchOverheadBench.FLOOR, overheadRatio);
    }
    if (options.runs(SparkBenchOptions.MEMORY)) {
      backlog.addAll(new BacklogBench(options, out).run(BacklogBench.selectedVariants()));
    }
  }

  private void rounds(
      String bench, Callable<Map<String, Double>> round, Map<String, Samples> samples)
      throws Exception {
    if (options.warmup()) {
      long t = System.nanoTime();
      Map<String, Double> warm = round.call();
      out.printf(
          Locale.ROOT,
          "%s: warm-up round (not counted) %.1f s: %s%n",
          bench,
          (System.nanoTime() - t) / 1e9,
          brief(warm));
    }
    for (int r = 1; r <= options.runs(); r++) {
      long t = System.nanoTime();
      Map<String, Double> result = round.call();
      result.forEach((k, v) -> samples.computeIfAbsent(k, x -> new Samples()).add(v));
      out.printf(
          Locale.ROOT,
          "%s: round %d of %d, %.1f s: %s%n",
          bench,
          r,
          options.runs(),
          (System.nanoTime() - t) / 1e9,
          brief(result));
    }
  }

  private static String brief(Map<String, Double> result) {
    List<String> parts = new ArrayList<>();
    result.forEach((k, v) -> parts.add(String.format(Locale.ROOT, "%s %,.1f", k, v)));
    return String.join(", ", parts);
  }

  /**
   * Per round, at-least-once's CPU per row of both JVMs (Spark's and the server's) over {@code
   * mode}'s: the ratio of rows/s the same busy cores allow, where both JVMs share them.
   */
  private Samples cpuAllowedRatio(String mode) {
    Samples base = modeCpu.get(ModeBench.AT_LEAST_ONCE);
    Samples baseServer = modeServerCpu.get(ModeBench.AT_LEAST_ONCE);
    Samples cpu = modeCpu.get(mode);
    Samples server = modeServerCpu.get(mode);
    Samples allowed = new Samples();
    for (int i = 0; i < cpu.size(); i++) {
      allowed.add((base.get(i) + baseServer.get(i)) / (cpu.get(i) + server.get(i)));
    }
    return allowed;
  }

  /** Per round, each variant over the base variant of the same round. */
  private static void ratios(
      Map<String, Samples> samples, String base, Map<String, Samples> ratios) {
    Samples b = samples.get(base);
    samples.forEach(
        (k, s) -> {
          Samples r = new Samples();
          for (int i = 0; i < s.size(); i++) {
            r.add(s.get(i) / b.get(i));
          }
          ratios.put(k, r);
        });
  }

  /**
   * Met, or not met; and where what the control allows is already under {@code target}, bounded by
   * it.
   */
  static String boundedVerdict(double ratio, double allowed, double target) {
    if (ratio >= target) {
      return PeerBench.verdict(true);
    }
    return allowed < target
        ? String.format(
            Locale.ROOT,
            "**not met**, bounded by the control: with Spark's side as measured the cores allow"
                + " %.2f×, under the %.2f×",
            allowed,
            target)
        : PeerBench.verdict(false);
  }

  /** As {@link #verdict} for a ratio that must stay at or below {@code target}. */
  static String atMost(Samples ratio, double target) {
    double m = ratio.median();
    return m <= target
        ? String.format(Locale.ROOT, "met (<= %.2f)", target)
        : String.format(
            Locale.ROOT, "NOT MET (%.2f > %.2f, %.0f%% over)", m, target, (m / target - 1) * 100);
  }

  static String verdict(Samples ratio, double target) {
    double m = ratio.median();
    return m >= target
        ? String.format(Locale.ROOT, "met (>= %.2f)", target)
        : String.format(
            Locale.ROOT, "NOT MET (%.2f < %.2f, %.0f%% short)", m, target, (1 - m / target) * 100);
  }

  String table() {
    StringBuilder t = new StringBuilder();
    String runs = options.runs() + (options.runs() == 1 ? " run" : " runs, median [min–max]");
    if (!throughput.isEmpty()) {
      t.append(
          String.format(
              Locale.ROOT,
              "Read path: %,d rows in %d partitions, select id, upper(payload)"
                  + " -> noop, one AvailableNow batch; rows/s of the batch (%s)%n",
              options.rowsPerPartition() * options.partitions(),
              options.partitions(),
              runs));
      t.append(
          String.format(
              Locale.ROOT, "%-22s %-36s %-26s %s%n", "source", "rows/s", "× bare", "target"));
      for (String v : ThroughputBench.VARIANTS) {
        String target =
            switch (v) {
              case ThroughputBench.YT_MEMORY ->
                  "× bare >= 0.8: " + verdict(throughputRatio.get(v), 0.8);
              case ThroughputBench.YT_HTTP ->
                  String.format(
                      Locale.ROOT,
                      "wire: × yt in-memory %s >= 0.5: %s",
                      throughputRatio.get("wire").format("%.2f"),
                      verdict(throughputRatio.get("wire"), 0.5));
              default -> "";
            };
        t.append(
            String.format(
                Locale.ROOT,
                "%-22s %-36s %-26s %s%n",
                v,
                throughput.get(v).format("%,.0f"),
                throughputRatio.get(v).format("%.2f"),
                target));
      }
      t.append(
          String.format(
              Locale.ROOT,
              "control, the wire alone (no Spark; the same pulls of %,d rows, %d threads):%n",
              WireControl.PULL_ROWS,
              ctx.spark.sparkContext().defaultParallelism()));
      for (String v : WireControl.NAMES) {
        t.append(
            String.format(
                Locale.ROOT,
                "%-22s %-36s %-26s %s%n",
                v,
                wireControl.get(v).format("%,.0f"),
                "",
                v.equals(WireControl.SERVER)
                    ? "fetch answers, decode nothing"
                    : "decode the recorded answers"));
      }
      for (String v : List.of(SERVER_BOUND, PREDICTED)) {
        t.append(
            String.format(
                Locale.ROOT, "%s: × yt in-memory %s%n", v, throughputRatio.get(v).format("%.2f")));
      }
      t.append('\n');
    }
    if (!modes.isEmpty()) {
      t.append(
          String.format(
              Locale.ROOT,
              "Delivery modes: %,d rows, yt source and sink over HTTP, the emulator in a JVM of its"
                  + " own, yt:/// checkpoints, max_rows_per_partition 100000 (AvailableNow); rows/s"
                  + " over the batches, the Spark JVM's CPU µs per row and the server JVM's over the"
                  + " same time, on the same cores (%s)%n",
              options.modeRows() / options.partitions() * options.partitions(),
              runs));
      t.append(
          String.format(
              Locale.ROOT,
              "%-18s %-30s %-18s %-24s %-18s %-24s %-18s %s%n",
              "mode",
              "rows/s",
              "× at-least-once",
              "CPU µs/row",
              "× at-least-once",
              "server CPU µs/row",
              "× at-least-once",
              "target"));
      for (String v : ModeBench.VARIANTS) {
        String target =
            v.equals(ModeBench.AT_LEAST_ONCE)
                ? ""
                : v.equals(ModeBench.FOREACH_NOTHING)
                    ? "control: the read and Spark's foreach API (a writer that keeps no row)"
                    : String.format(
                        Locale.ROOT,
                        "rows/s >= 0.8: %s; CPU <= %.2f: %s",
                        verdict(modeRatio.get(v), 0.8),
                        MODE_CPU_TARGET,
                        atMost(modeCpuRatio.get(v), MODE_CPU_TARGET));
        t.append(
            String.format(
                Locale.ROOT,
                "%-18s %-30s %-18s %-24s %-18s %-24s %-18s %s%n",
                v,
                modes.get(v).format("%,.0f"),
                modeRatio.get(v).format("%.2f"),
                modeCpu.get(v).format("%.2f"),
                modeCpuRatio.get(v).format("%.2f"),
                modeServerCpu.get(v).format("%.2f"),
                modeServerCpuRatio.get(v).format("%.2f"),
                target));
      }
      t.append('\n');
    }
    if (!overhead.isEmpty()) {
      t.append(
          String.format(
              Locale.ROOT,
              "Per-batch overhead: ProcessingTime(0), 1 row per batch, yt source in-memory"
                  + " -> noop; batches/s over %d batches after %d (%s)%n",
              options.batches(),
              SparkBenchOptions.SKIPPED_BATCHES,
              runs));
      t.append(
          String.format(
              Locale.ROOT,
              "%-32s %-30s %-10s %-26s %s%n",
              "checkpoint",
              "batches/s",
              "ms/batch",
              "× floor",
              "target"));
      Samples file = overhead.get(BatchOverheadBench.FILE);
      for (String v : BatchOverheadBench.VARIANTS) {
        Samples s = overhead.get(v);
        String target =
            switch (v) {
              case BatchOverheadBench.YT_MEMORY ->
                  ">= 0.8: " + verdict(overheadRatio.get(v), 0.8) + "; " + faster(s, file);
              case BatchOverheadBench.YT_HTTP ->
                  ">= 0.5: " + verdict(overheadRatio.get(v), 0.5) + "; " + faster(s, file);
              default -> "";
            };
        t.append(
            String.format(
                Locale.ROOT,
                "%-32s %-30s %-10.1f %-26s %s%n",
                v,
                s.format("%,.1f"),
                1000 / s.median(),
                overheadRatio.get(v).format("%.2f"),
                target));
      }
      t.append('\n');
    }
    if (!backlog.isEmpty()) {
      long backlogRows = options.backlogRows() / options.partitions() * options.partitions();
      t.append(
          String.format(
              Locale.ROOT,
              "Memory: a backlog of %,d rows (%d partitions) drained by a child JVM with"
                  + " -Xmx%s over HTTP (yt source -> yt sink, AvailableNow)%n",
              backlogRows,
              options.partitions(),
              options.backlogHeap()));
      for (BacklogBench.Outcome o : backlog) {
        t.append(
            String.format(
                Locale.ROOT,
                "%-56s %s: exit %d, %s; rows out %,d, consumer %,d, %.0f s%n",
                o.variant().label(),
                o.completed(backlogRows) ? "completed" : "DID NOT COMPLETE",
                o.exitCode(),
                o.result(),
                o.rowsOut(),
                o.consumerTotal(),
                o.seconds()));
        if (!o.completed(backlogRows)) {
          for (String line : o.errorTail()) {
            t.append("    ").append(line).append('\n');
          }
        }
      }
      t.append('\n');
    }
    return t.toString();
  }

  /** The results file's rows of the targets this run measured (markdown table rows). */
  String targets() {
    StringBuilder t = new StringBuilder();
    if (!throughput.isEmpty()) {
      Samples r = throughputRatio.get(ThroughputBench.YT_MEMORY);
      t.append(
          String.format(
              Locale.ROOT,
              "| in-memory read path beside the bare DSv2 source | ≥ 0.8 × bare | %s× (%,.0f vs %,.0f"
                  + " rows/s); control: the bare source building each row from stored values"
                  + " (a long, UTF-8 bytes) %s× bare | %s |%n",
              r.format("%.2f"),
              throughput.get(ThroughputBench.YT_MEMORY).median(),
              throughput.get(ThroughputBench.BARE).median(),
              throughputRatio.get(ThroughputBench.BARE_BUILT).format("%.2f"),
              PeerBench.verdict(r.median() >= 0.8)));
    }
    if (!modes.isEmpty()) {
      Samples r = modeRatio.get(ModeBench.IDEMPOTENT);
      t.append(
          String.format(
              Locale.ROOT,
              "| idempotent receiver beside at-least-once | ≥ 0.8 × at-least-once | %s× (%,.0f vs"
                  + " %,.0f rows/s); control: Spark's CPU per row %s× at-least-once's, the"
                  + " server's (its upserts into a sorted table, on the same cores) %s×; the two"
                  + " JVMs' CPU per row of at-least-once over idempotent's, the rows/s the same"
                  + " busy cores allow, %s× | %s |%n",
              r.format("%.2f"),
              modes.get(ModeBench.IDEMPOTENT).median(),
              modes.get(ModeBench.AT_LEAST_ONCE).median(),
              modeCpuRatio.get(ModeBench.IDEMPOTENT).format("%.2f"),
              modeServerCpuRatio.get(ModeBench.IDEMPOTENT).format("%.2f"),
              idempotentAllowed.format("%.2f"),
              boundedVerdict(r.median(), idempotentAllowed.median(), 0.8)));
      Samples p = modeRatio.get(ModeBench.PRODUCER);
      t.append(
          String.format(
              Locale.ROOT,
              "| producer sessions beside at-least-once | ≥ 0.8 × at-least-once | %s× (%,.0f vs"
                  + " %,.0f rows/s) | %s |%n",
              p.format("%.2f"),
              modes.get(ModeBench.PRODUCER).median(),
              modes.get(ModeBench.AT_LEAST_ONCE).median(),
              PeerBench.verdict(p.median() >= 0.8)));
      for (String v : ModeBench.VARIANTS) {
        if (v.equals(ModeBench.AT_LEAST_ONCE) || v.equals(ModeBench.FOREACH_NOTHING)) {
          continue;
        }
        Samples c = modeCpuRatio.get(v);
        String control =
            v.equals(ModeBench.PRODUCER_FOREACH)
                ? String.format(
                    Locale.ROOT,
                    "; control: the same rows into a ForeachWriter that keeps none, %s×"
                        + " at-least-once's (%.2f µs/row): the read and Spark's foreach API"
                        + " (an external Row per row), before any writer's work",
                    modeCpuRatio.get(ModeBench.FOREACH_NOTHING).format("%.2f"),
                    modeCpu.get(ModeBench.FOREACH_NOTHING).median())
                : "";
        t.append(
            String.format(
                Locale.ROOT,
                "| Spark JVM CPU per row, %s beside at-least-once (server in its own JVM) | ≤ 1.25 ×"
                    + " at-least-once's | %s× (%.2f vs %.2f µs/row)%s | %s |%n",
                v,
                c.format("%.2f"),
                modeCpu.get(v).median(),
                modeCpu.get(ModeBench.AT_LEAST_ONCE).median(),
                control,
                PeerBench.verdict(c.median() <= MODE_CPU_TARGET)));
      }
    }
    return t.toString();
  }

  private static String faster(Samples s, Samples file) {
    if (file == null) {
      return "";
    }
    double x = s.median() / file.median();
    return String.format(
        Locale.ROOT, "%s than file:// (%.1f×)", x > 1 ? "faster" : "NOT faster", x);
  }

  static void writeQuietly(java.nio.file.Path path, String text) throws IOException {
    Files.writeString(path, text, StandardCharsets.UTF_8);
  }
}
