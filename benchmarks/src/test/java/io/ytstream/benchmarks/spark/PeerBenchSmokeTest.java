package io.ytstream.benchmarks.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the peer benchmark once at a tiny size (a real Kafka broker and the emulator, each in a
 * child JVM), so that a broken harness fails the build; the figures mean nothing here.
 */
class PeerBenchSmokeTest {

  @TempDir Path out;

  @Test
  void bothSourcesDrainTheWholeBacklogAndTheTablesAreWritten() throws Exception {
    PeerBenchOptions options =
        PeerBenchOptions.parse(
            "--rows",
            "2000",
            "--batch-rows",
            "1000",
            "--rounds",
            "2",
            "--no-warmup",
            "--out",
            out.toString());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    String table =
        PeerBench.run(
            BenchSession.getOrCreate(),
            options,
            new PrintStream(bytes, true, StandardCharsets.UTF_8));

    String log = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(log.contains("round 2 of 2"), log);
    assertTrue(
        table.contains(PeerBench.KAFKA)
            && table.contains(PeerBench.KAFKA_RAW)
            && table.contains(PeerBench.YT)
            && table.contains(PeerBench.BARE)
            && table.contains("CPU less JIT"),
        table);
    assertTrue(Files.readString(out.resolve("targets.md")).contains("controls: a bare source"));
    assertEquals(table, Files.readString(out.resolve("peer-table.md")));
    String targets = Files.readString(out.resolve("targets.md"));
    assertEquals(3, targets.lines().count(), targets);
    assertTrue(
        targets.lines().allMatch(l -> l.endsWith("| met |") || l.contains("| **not met**")),
        targets);
  }

  @Test
  void optionsNameTheFlagTheValueAndTheUsage() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> PeerBenchOptions.parse("--batch-rows", "0"));
    assertTrue(e.getMessage().contains("--batch-rows") && e.getMessage().contains("'0'"));
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> PeerBenchOptions.parse("--partitions", "8", "--batch-rows", "4"));
    assertTrue(e.getMessage().contains("at least --partitions (8)"), e.getMessage());
    assertEquals(125_000, PeerBenchOptions.parse().batchRowsPerPartition());
  }
}
