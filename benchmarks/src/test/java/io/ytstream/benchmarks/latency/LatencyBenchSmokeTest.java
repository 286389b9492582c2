package io.ytstream.benchmarks.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the latency benchmark once at a tiny size (200 rows/s, one partition, RealTime 1 s, 2 s
 * measured), so that a broken harness fails the build; the figures mean nothing here.
 */
class LatencyBenchSmokeTest {

  @TempDir Path out;

  /** 200 rows/s, one partition, RealTime 1 s, 2 s measured, no warm-up; then {@code more}. */
  private LatencyOptions tiny(String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--rates",
                "200",
                "--triggers",
                "1",
                "--window",
                "2",
                "--warmup",
                "0",
                "--partitions",
                "1",
                "--cores",
                "2",
                "--out",
                out.toString()));
    args.addAll(List.of(more));
    return LatencyOptions.parse(args.toArray(new String[0]));
  }

  @Test
  void everyYtVariantDeliversEveryRowOfItsWindowAndTheReportIsWritten() throws Exception {
    LatencyOptions options =
        tiny("--variants", "rt-exactly-once,rt-append,micro-batch,rt-handoff,floor-append");
    LatencyBench bench =
        new LatencyBench(
            LatencyBench.session(2),
            options,
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    try {
      bench.runAll();
    } finally {
      bench.close();
    }
    String table = bench.writeReport();

    assertEquals(1, bench.groups.size());
    LatencyBench.Group g = bench.groups.get(0);
    assertEquals(options.variants(), List.copyOf(g.stats().keySet()));
    g.stats()
        .forEach(
            (v, s) -> {
              assertTrue(s.complete(), v + ": " + s.delivered + " of " + s.expected + " rows");
              assertTrue(s.p50 > 0 && s.p50 <= s.p99 && s.p99 <= s.max, v + " percentiles");
            });
    assertTrue(table.contains("| micro-batch | "), table);
    assertEquals(table, Files.readString(out.resolve("latency-table.md")));
    assertEquals("", Files.readString(out.resolve("targets.md")), "no Kafka figure, no target");
  }

  @Test
  void kafkaAndTheEmulatorInJvmsOfTheirOwnServeBothWritersAndTheirControlsRunByRun()
      throws Exception {
    LatencyOptions options =
        tiny(
            "--backends",
            "emulator",
            "--emulator-jvm",
            "own",
            "--variants",
            "rt-append,kafka-rt-append,rt-exactly-once,floor-append,floor-exactly-once",
            "--repeat",
            "2");
    LatencyBench bench =
        new LatencyBench(
            LatencyBench.session(2),
            options,
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    try {
      bench.runAll();
    } finally {
      bench.close();
    }
    for (Variant v : options.variants()) {
      LatencyStats s = bench.groups.get(0).stats().get(v);
      assertTrue(s.complete(), v + ": " + s.delivered + " of " + s.expected + " rows");
      assertTrue(s.p50 > 0, v + ": latencies are positive across the two JVMs' clocks: " + s.p50);
    }
    String table = bench.writeReport();
    assertTrue(table.contains("| rt-append ÷ kafka-rt-append | "), table);
    assertTrue(table.contains("| rt-exactly-once ÷ kafka-rt-append | "), table);
    assertTrue(table.contains("| kafka-rt-append | 2 | "), "each run has its row: " + table);
    assertTrue(table.contains("| floor-exactly-once ÷ kafka-rt-append | "), table);
    assertTrue(table.contains("The source's part of the p50"), table);
    List<String> targets = Files.readAllLines(out.resolve("targets.md"));
    assertEquals(4, targets.size(), String.join("\n", targets));
    assertTrue(
        targets.get(0).startsWith("| real-time p50, rt-append beside Spark's Kafka source"),
        targets.get(0));
    assertTrue(
        targets.get(3).startsWith("| real-time p99, rt-exactly-once beside Spark's Kafka source"),
        targets.get(3));
  }

  @Test
  void severalPartitionsPerTaskDeliverEveryRow() throws Exception {
    // 4 partitions read by 2 tasks: fits the smoke session's 2 slots, which rt-append would not.
    LatencyOptions options =
        tiny("--partitions", "4", "--cores", "2", "--variants", "rt-append-2-tasks");
    assertEquals(2, Variant.RT_APPEND_TWO_TASKS.partitionsPerTask(4));
    LatencyBench bench =
        new LatencyBench(
            LatencyBench.session(2),
            options,
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    try {
      bench.runAll();
    } finally {
      bench.close();
    }
    LatencyStats s = bench.groups.get(0).stats().get(Variant.RT_APPEND_TWO_TASKS);
    assertTrue(s.complete(), s.delivered + " of " + s.expected + " rows");
    assertTrue(bench.writeReport().contains("| rt-append-2-tasks | "));
  }
}
