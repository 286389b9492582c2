package io.ytstream.benchmarks.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs every Spark harness once at tiny sizes, so that a broken harness fails the build; the
 * figures themselves mean nothing here. The memory benchmark runs its first variant only (one child
 * JVM).
 */
class SparkBenchSmokeTest {

  @TempDir Path out;

  @Test
  void everyHarnessRunsAndReportsEveryVariant() throws Exception {
    SparkBenchOptions options =
        SparkBenchOptions.parse(
            "--runs",
            "1",
            "--no-warmup",
            "--benches",
            "read-path,modes,batch-overhead",
            "--rows",
            "2000",
            "--mode-rows",
            "2000",
            "--batches",
            "3",
            "--backlog-rows",
            "2000",
            "--out",
            out.toString());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream log = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    try (BenchContext ctx = new BenchContext(BenchSession.getOrCreate(), options, log)) {
      SparkBench bench = new SparkBench(ctx);
      bench.runAll();

      assertEquals(ThroughputBench.VARIANTS, List.copyOf(bench.throughput.keySet()));
      assertEquals(ModeBench.VARIANTS, List.copyOf(bench.modes.keySet()));
      assertEquals(ModeBench.VARIANTS, List.copyOf(bench.modeCpu.keySet()));
      assertEquals(ModeBench.VARIANTS, List.copyOf(bench.modeServerCpu.keySet()));
      bench.modeServerCpu.forEach(
          (mode, s) -> assertTrue(s.median() > 0, mode + "'s server did work: " + s));
      assertEquals(BatchOverheadBench.VARIANTS, List.copyOf(bench.overhead.keySet()));
      for (Map<String, Samples> item :
          List.of(bench.throughput, bench.modes, bench.modeCpu, bench.overhead)) {
        item.forEach(
            (variant, s) ->
                assertTrue(s.size() == 1 && s.median() > 0, variant + " has a figure: " + s));
      }
      assertEquals(1.0, bench.throughputRatio.get(ThroughputBench.BARE).median(), 1e-9);
      assertTrue(bench.throughputRatio.containsKey("wire"), "the wire cost is computed");
      assertEquals(WireControl.NAMES, List.copyOf(bench.wireControl.keySet()));
      bench.wireControl.forEach(
          (control, s) -> assertTrue(s.median() > 0, control + " has a figure: " + s));
      for (String bound : List.of(SparkBench.SERVER_BOUND, SparkBench.PREDICTED)) {
        double ratio = bench.throughputRatio.get(bound).median();
        assertTrue(ratio > 0 && ratio < 1, bound + " is a ratio below 1: " + ratio);
      }

      String table = bench.table();
      assertTrue(table.contains("Read path"), table);
      assertTrue(table.contains(WireControl.SERVER) && table.contains(SparkBench.PREDICTED), table);
      assertTrue(table.contains("Delivery modes"), table);
      assertTrue(table.contains("Per-batch overhead"), table);
      String targets = bench.targets();
      // read path, idempotent and producer rows/s, and the CPU row of each mode but at-least-once
      // (the baseline) and foreach-nothing (a control, shown in producer-foreach's row)
      assertEquals(3 + ModeBench.VARIANTS.size() - 2, targets.lines().count(), targets);
      assertTrue(targets.contains("a ForeachWriter that keeps none"), targets);
      assertTrue(
          targets.contains("busy cores allow")
              && targets.contains("bare DSv2")
              && targets.contains("idempotent")
              && targets.contains("producer sessions")
              && targets.contains("CPU per row, idempotent beside at-least-once"),
          targets);
      assertTrue(
          table.contains("met (>=") || table.contains("NOT MET"), "targets are marked: " + table);
    }
  }

  @Test
  void theBacklogChildJvmDrainsAQueueAndIsChecked() throws Exception {
    SparkBenchOptions options =
        SparkBenchOptions.parse(
            "--backlog-rows", "2000", "--backlog-heap", "600m", "--out", out.toString());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    List<BacklogBench.Outcome> outcomes =
        new BacklogBench(options, new PrintStream(bytes, true, StandardCharsets.UTF_8))
            .run(List.of(BacklogBench.variants().get(0)));
    BacklogBench.Outcome o = outcomes.get(0);
    assertTrue(o.completed(2000), "drained: " + o + "\n" + bytes.toString(StandardCharsets.UTF_8));
    assertTrue(o.result().startsWith("RESULT rows=2000 "), o.result());
  }
}
