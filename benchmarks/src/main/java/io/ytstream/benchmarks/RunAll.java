package io.ytstream.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs the JMH suite one or more times, writes each run's JSON, and prints the performance table:
 * per benchmark and partition count the score (wall µs/op, JMH's figure) and the CPU time per
 * operation ({@link CpuTimeProfiler}, which a loaded machine does not inflate), the CPU cost per
 * partition at each size, the least-squares slope in µs per partition with its R² for both, and the
 * verdict against the target of under 1 ms per batch at 10,000 partitions.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.ytstream.benchmarks.RunAll \
 *     [--runs N] [--out DIR] [JMH options, e.g. -f 1 -wi 3 -i 5 -w 1s -r 1s]
 * </pre>
 */
public final class RunAll {

  /**
   * The planner target: under this many µs for one driver batch at {@link #TARGET_PARTITIONS}
   * partitions.
   */
  static final double TARGET_MICROS = 1_000;

  static final int TARGET_PARTITIONS = 10_000;

  /** The machine's floor ({@link FloorBenchmark}), which the other rows are compared with. */
  static final String FLOOR = "Floor.appendOffsetsText";

  private RunAll() {}

  public static void main(String[] args)
      throws IOException, RunnerException, CommandLineOptionException {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    int runs = 1;
    Path dir = Path.of("benchmarks", "target", "jmh");
    List<String> jmhArgs = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--out" -> dir = Path.of(args[++i]);
        default -> jmhArgs.add(args[i]);
      }
    }
    if (runs < 1) {
      throw new IllegalArgumentException("--runs must be >= 1, got " + runs);
    }
    Files.createDirectories(dir);
    CommandLineOptions cli = new CommandLineOptions(jmhArgs.toArray(new String[0]));
    Table table = new Table();
    for (int run = 1; run <= runs; run++) {
      Path json = dir.resolve("results-" + run + ".json");
      out.printf(Locale.ROOT, "== run %d of %d -> %s%n", run, runs, json);
      OptionsBuilder options = new OptionsBuilder();
      options
          .parent(cli)
          .addProfiler(CpuTimeProfiler.class)
          .resultFormat(ResultFormatType.JSON)
          .result(json.toString());
      if (cli.getIncludes().isEmpty()) {
        options.include(RunAll.class.getPackageName() + ".*");
      }
      for (RunResult result : new Runner(options.build()).run()) {
        table.add(result);
      }
    }
    String text = table.render(runs);
    Files.writeString(dir.resolve("table.txt"), text, StandardCharsets.UTF_8);
    out.println();
    out.print(text);
  }

  /** Scores by benchmark, then partition count, one per run. */
  static final class Table {

    private final Map<String, TreeMap<Integer, List<Score>>> scores = new TreeMap<>();

    /** Wall time (JMH's score) with its 99.9% error, and CPU time, all in µs per operation. */
    record Score(double wall, double error, double cpu) {}

    void add(RunResult result) {
      String name = shortName(result.getParams().getBenchmark());
      String unit = result.getPrimaryResult().getScoreUnit();
      if (!"us/op".equals(unit)) {
        throw new IllegalStateException(name + " reports " + unit + ", expected us/op");
      }
      Result<?> cpu = result.getSecondaryResults().get(CpuTimeProfiler.LABEL);
      add(
          name,
          Integer.parseInt(result.getParams().getParam("partitions")),
          new Score(
              result.getPrimaryResult().getScore(),
              result.getPrimaryResult().getScoreError(),
              cpu == null ? Double.NaN : cpu.getScore()));
    }

    void add(String benchmark, int partitions, Score score) {
      scores
          .computeIfAbsent(benchmark, b -> new TreeMap<>())
          .computeIfAbsent(partitions, p -> new ArrayList<>())
          .add(score);
    }

    String render(int runs) {
      StringBuilder text = new StringBuilder();
      String wallHeader = runs == 1 ? "wall µs/op ± error" : "wall µs/op median [min–max]";
      String cpuHeader = runs == 1 ? "cpu µs/op" : "cpu µs/op median [min–max]";
      String row = "%-36s %6s  %-32s %-32s %8s %7s%n";
      text.append(
          String.format(
              Locale.ROOT, row, "benchmark", "parts", wallHeader, cpuHeader, "cpu ns/p", "×floor"));
      TreeMap<Integer, List<Score>> floor = scores.getOrDefault(FLOOR, new TreeMap<>());
      StringBuilder fits = new StringBuilder();
      for (Map.Entry<String, TreeMap<Integer, List<Score>>> bench : scores.entrySet()) {
        List<double[]> wallPoints = new ArrayList<>();
        List<double[]> cpuPoints = new ArrayList<>();
        for (Map.Entry<Integer, List<Score>> entry : bench.getValue().entrySet()) {
          int n = entry.getKey();
          List<Score> all = entry.getValue();
          double[] wall = all.stream().mapToDouble(Score::wall).sorted().toArray();
          double[] cpu = all.stream().mapToDouble(Score::cpu).sorted().toArray();
          String wallText =
              runs == 1
                  ? String.format(Locale.ROOT, "%.2f ± %.2f", wall[0], all.get(0).error())
                  : spread(wall);
          String cpuText = runs == 1 ? String.format(Locale.ROOT, "%.2f", cpu[0]) : spread(cpu);
          text.append(
              String.format(
                  Locale.ROOT,
                  row,
                  bench.getKey(),
                  n,
                  wallText,
                  cpuText,
                  String.format(Locale.ROOT, "%.0f", median(cpu) * 1000 / n),
                  floor.containsKey(n)
                      ? String.format(
                          Locale.ROOT,
                          "%.1f",
                          median(cpu)
                              / median(
                                  floor.get(n).stream().mapToDouble(Score::cpu).sorted().toArray()))
                      : "-"));
          wallPoints.add(new double[] {n, median(wall)});
          cpuPoints.add(new double[] {n, median(cpu)});
        }
        Fit wallFit = Fit.of(wallPoints);
        Fit cpuFit = Fit.of(cpuPoints);
        fits.append(
            String.format(
                Locale.ROOT,
                "%-36s %12.4f %7.4f %12.4f %7.4f  %-20s %s%n",
                bench.getKey(),
                wallFit.slope(),
                wallFit.r2(),
                cpuFit.slope(),
                cpuFit.r2(),
                verdict(wallPoints),
                verdict(cpuPoints)));
      }
      text.append('\n')
          .append(
              String.format(
                  Locale.ROOT,
                  "%-36s %12s %7s %12s %7s  %-20s %s%n",
                  "least-squares line over partitions",
                  "wall µs/p",
                  "R²",
                  "cpu µs/p",
                  "R²",
                  "< 1 ms @10k (wall)",
                  "(cpu)"))
          .append(fits);
      return text.toString();
    }

    private static String spread(double[] sorted) {
      return String.format(
          Locale.ROOT, "%.2f [%.2f–%.2f]", median(sorted), sorted[0], sorted[sorted.length - 1]);
    }

    private static String verdict(List<double[]> points) {
      for (double[] p : points) {
        if (p[0] == TARGET_PARTITIONS) {
          if (Double.isNaN(p[1])) {
            return "n/a";
          }
          return String.format(
              Locale.ROOT, "%s (%.0f µs)", p[1] < TARGET_MICROS ? "PASS" : "FAIL", p[1]);
        }
      }
      return "n/a (no 10k run)";
    }
  }

  /** An ordinary least-squares line through (partitions, µs) points. */
  record Fit(double slope, double intercept, double r2) {

    static Fit of(List<double[]> points) {
      int n = points.size();
      if (n < 2) {
        return new Fit(Double.NaN, Double.NaN, Double.NaN);
      }
      double sx = 0;
      double sy = 0;
      for (double[] p : points) {
        sx += p[0];
        sy += p[1];
      }
      double mx = sx / n;
      double my = sy / n;
      double sxx = 0;
      double sxy = 0;
      double syy = 0;
      for (double[] p : points) {
        sxx += (p[0] - mx) * (p[0] - mx);
        sxy += (p[0] - mx) * (p[1] - my);
        syy += (p[1] - my) * (p[1] - my);
      }
      double slope = sxy / sxx;
      double intercept = my - slope * mx;
      double residual = 0;
      for (double[] p : points) {
        double e = p[1] - (intercept + slope * p[0]);
        residual += e * e;
      }
      return new Fit(slope, intercept, syy == 0 ? 1 : 1 - residual / syy);
    }
  }

  static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** {@code io.ytstream.benchmarks.OffsetsJsonBenchmark.parse} -> {@code OffsetsJson.parse}. */
  static String shortName(String benchmark) {
    String[] parts = benchmark.split("\\.");
    String method = parts[parts.length - 1];
    String type = parts[parts.length - 2].replace("Benchmark", "");
    return type + "." + method;
  }
}
