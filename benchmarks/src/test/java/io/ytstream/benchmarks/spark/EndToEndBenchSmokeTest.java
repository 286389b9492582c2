package io.ytstream.benchmarks.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.ports.Row;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the end-to-end benchmark once at a tiny size (a real Kafka broker and the emulator, each in
 * a child JVM), so that a broken harness fails the build; the figures mean nothing here. Every run
 * checks its own output, so a pass also says each pipeline wrote every row.
 */
class EndToEndBenchSmokeTest {

  @TempDir Path out;

  @Test
  void everyPipelineMovesTheWholeBacklogAndTheTablesAreWritten() throws Exception {
    EndToEndOptions options =
        EndToEndOptions.parse(
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
        EndToEndBench.run(
            BenchSession.getOrCreate(),
            options,
            new PrintStream(bytes, true, StandardCharsets.UTF_8));

    String log = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(log.contains("round 2 of 2"), log);
    for (String p : EndToEndBench.PIPELINES) {
      assertTrue(table.contains(p), table);
    }
    assertTrue(table.contains("every id once, each round"), table);
    assertTrue(table.contains("server CPU µs/row | cores busy"), table);
    assertEquals(table, Files.readString(out.resolve("e2e-table.md")));
    String targets = Files.readString(out.resolve("targets.md"));
    assertEquals(1, targets.lines().count(), targets);
    assertTrue(targets.lines().allMatch(l -> l.endsWith("| met |") || l.endsWith("not met** |")));
  }

  @Test
  void roundsRotateWhichPipelineGoesFirst() {
    assertEquals(EndToEndBench.PIPELINES, EndToEndBench.inRound(0));
    assertEquals(EndToEndBench.PIPELINES, EndToEndBench.inRound(1));
    assertEquals(EndToEndBench.YT_QUEUE, EndToEndBench.inRound(2).get(0));
    assertEquals(EndToEndBench.YT_SORTED, EndToEndBench.inRound(3).get(0));
  }

  @Test
  void theOutputCheckFindsMissingRepeatedAndForeignIds() {
    InMemoryCluster cluster = InMemoryCluster.withSystemClock("e2e-check");
    PeerRows.createOutputQueue(cluster, "//out", 2, "//producer");
    cluster
        .outputTables()
        .append(
            YPath.of("//out"),
            List.of(
                Row.of("$tablet_index", 0L, "id", 0L, "payload", "a"),
                Row.of("$tablet_index", 1L, "id", 1L, "payload", "b"),
                Row.of("$tablet_index", 0L, "id", 1L, "payload", "b"),
                Row.of("$tablet_index", 1L, "id", 7L, "payload", "c")));

    OutputCheck check = OutputCheck.of(cluster, "//out", 3);

    assertEquals(new OutputCheck(4, 2, 1, 1), check);
    assertEquals(check, OutputCheck.parse(check.line()));
    assertFalse(check.exactlyOnce(3));
    assertTrue(new OutputCheck(3, 3, 0, 0).exactlyOnce(3));
  }

  @Test
  void optionsNameTheFlagTheValueAndTheUsage() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> EndToEndOptions.parse("--rows", "3000000000"));
    assertTrue(e.getMessage().contains("--rows") && e.getMessage().contains("'3000000000'"));
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> EndToEndOptions.parse("--partitions", "8", "--batch-rows", "4"));
    assertTrue(e.getMessage().contains("at least --partitions (8)"), e.getMessage());
    assertEquals(125_000, EndToEndOptions.parse().batchRowsPerPartition());
  }
}
