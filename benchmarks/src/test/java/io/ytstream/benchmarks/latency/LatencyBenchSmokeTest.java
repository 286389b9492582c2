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
import java.util.regex.Pattern;
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
  void everyVariantDeliversEveryRowOfItsWindowAndTheReportIsWritten() throws Exception {
    LatencyOptions options = tiny();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    LatencyBench bench =
        new LatencyBench(
            LatencyBench.session(2), options, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      bench.runAll();
    } finally {
      bench.close();
    }
    String table = bench.writeReport();

    assertEquals(1, bench.groups.size());
    LatencyBench.Group g = bench.groups.get(0);
    assertEquals(Variant.standard(), List.copyOf(g.stats().keySet()));
    g.stats()
        .forEach(
            (v, s) -> {
              assertTrue(s.complete(), v + ": " + s.delivered + " of " + s.expected + " rows");
              assertTrue(s.p50 > 0 && s.p50 <= s.p99 && s.p99 <= s.max, v + " percentiles");
            });
    String log = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(
        Pattern.compile("no task running at each boundary [^\\n]*: \\[[0-9]").matcher(log).find(),
        "the task-free span of a boundary is reported: " + log);
    assertTrue(table.contains("p99 / micro-batch p99"), table);
    assertTrue(table.contains("rt-exactly-once p50 / bare-rt-exactly-once p50"), table);
    assertTrue(table.contains("rt-append p50 / bare-rt p50"), table);
    assertTrue(table.contains("met"), table);
    String svg = Files.readString(out.resolve("latency.svg"));
    assertEquals(
        Variant.standard().size(), svg.split("<polyline").length - 1, "one line per variant");
  }

  @Test
  void theEmulatorInAJvmOfItsOwnServesTheSourceTheWritersAndTheProducer() throws Exception {
    LatencyOptions options =
        tiny(
            "--backends",
            "emulator",
            "--emulator-jvm",
            "own",
            "--variants",
            "rt-append,bare-rt",
            "--limit-load",
            "producer");
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
    LatencyStats s = bench.groups.get(0).stats().get(Variant.RT_APPEND);
    assertTrue(s.complete(), s.delivered + " of " + s.expected + " rows");
    assertTrue(s.p50 > 0, "latencies are positive across the two JVMs' clocks: " + s.p50);
    LatencyStats limit = bench.groups.get(0).stats().get(Variant.BARE_RT);
    assertTrue(
        limit.complete(),
        "the limit with a producer beside it: " + limit.delivered + " of " + limit.expected);
  }
}
