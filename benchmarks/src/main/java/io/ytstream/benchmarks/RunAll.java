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
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs the JMH suite one or more times, writes each run's JSON, and prints the performance table:
 * per benchmark and partition count the score (µs/op), the least-squares slope in µs per partition
 * with its R², the cost per partition at each size, and the verdict against the target of under 1
 * ms per batch at 10,000 partitions.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.ytstream.benchmarks.RunAll \
 *     [--runs N] [--out DIR] [JMH options, e.g. -f 1 -wi 3 -i 5 -w 1s -r 1s]
 * </pre>
 */
public final class RunAll {

  /** The target of issue 8 item 5, at {@link #TARGET_PARTITIONS} partitions. */
  static final double TARGET_MICROS = 1_000;

  static final int TARGET_PARTITIONS = 10_000;

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
      options.parent(cli).resultFormat(ResultFormatType.JSON).result(json.toString());
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

    record Score(double micros, double error) {}

    void add(RunResult result) {
      String name = shortName(result.getParams().getBenchmark());
      String unit = result.getPrimaryResult().getScoreUnit();
      if (!"us/op".equals(unit)) {
        throw new IllegalStateException(name + " reports " + unit + ", expected us/op");
      }
      int partitions = Integer.parseInt(result.getParams().getParam("partitions"));
      add(
          name,
          partitions,
          result.getPrimaryResult().getScore(),
          result.getPrimaryResult().getScoreError());
    }

    void add(String benchmark, int partitions, double micros, double error) {
      scores
          .computeIfAbsent(benchmark, b -> new TreeMap<>())
          .computeIfAbsent(partitions, p -> new ArrayList<>())
          .add(new Score(micros, error));
    }

    String render(int runs) {
      StringBuilder text = new StringBuilder();
      String scoreHeader = runs == 1 ? "score ± error (µs/op)" : "median [min–max] (µs/op)";
      text.append(
          String.format(
              Locale.ROOT,
              "%-46s %10s  %-30s %12s%n",
              "benchmark",
              "partitions",
              scoreHeader,
              "ns/partition"));
      StringBuilder fits = new StringBuilder();
      for (Map.Entry<String, TreeMap<Integer, List<Score>>> bench : scores.entrySet()) {
        List<double[]> points = new ArrayList<>();
        for (Map.Entry<Integer, List<Score>> row : bench.getValue().entrySet()) {
          int n = row.getKey();
          double[] micros = row.getValue().stream().mapToDouble(Score::micros).sorted().toArray();
          double median = median(micros);
          String score =
              runs == 1
                  ? String.format(
                      Locale.ROOT, "%.3f ± %.3f", micros[0], row.getValue().get(0).error())
                  : String.format(
                      Locale.ROOT,
                      "%.3f [%.3f–%.3f]",
                      median,
                      micros[0],
                      micros[micros.length - 1]);
          text.append(
              String.format(
                  Locale.ROOT,
                  "%-46s %10d  %-30s %12.1f%n",
                  bench.getKey(),
                  n,
                  score,
                  median * 1000 / n));
          points.add(new double[] {n, median});
        }
        fits.append(fitLine(bench.getKey(), points, bench.getValue()));
      }
      text.append('\n')
          .append(
              String.format(
                  Locale.ROOT,
                  "%-46s %14s %12s %8s  %s%n",
                  "linear fit: score = a + slope × partitions",
                  "slope µs/part",
                  "a (µs)",
                  "R²",
                  "target < 1 ms at 10,000"))
          .append(fits);
      return text.toString();
    }

    private static String fitLine(
        String benchmark, List<double[]> points, TreeMap<Integer, List<Score>> rows) {
      Fit fit = Fit.of(points);
      List<Score> atTarget = rows.get(TARGET_PARTITIONS);
      String verdict;
      if (atTarget == null) {
        verdict = "n/a (not run at 10,000)";
      } else {
        double micros = median(atTarget.stream().mapToDouble(Score::micros).sorted().toArray());
        verdict =
            String.format(
                Locale.ROOT, "%s (%.1f µs)", micros < TARGET_MICROS ? "PASS" : "FAIL", micros);
      }
      return String.format(
          Locale.ROOT,
          "%-46s %14.5f %12.2f %8.4f  %s%n",
          benchmark,
          fit.slope(),
          fit.intercept(),
          fit.r2(),
          verdict);
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
