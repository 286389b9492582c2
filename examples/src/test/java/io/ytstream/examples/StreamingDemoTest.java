package io.ytstream.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.examples.DemoOptions.DeliveryMode;
import io.ytstream.examples.DemoOptions.Kill;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * README command one in a small configuration: a few thousand rows, one kill (the driver crash
 * between the sink's commit and Spark's {@code commits/N}, which replays a batch) and one restart,
 * per delivery mode, against the emulator over HTTP. The exactly-once modes (producer included,
 * whose replayed batch is pushed again and skipped by the server) must show no duplicate,
 * at-least-once must show the replayed batch twice, and no mode may lose a row. Each run's
 * transcript is {@code target/streaming-demo-<mode>.txt}, as the command line writes it.
 */
class StreamingDemoTest {

  private static SparkSession spark;

  @BeforeAll
  static void startSpark() {
    spark = StreamingDemo.newSession();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  private static DemoReport run(DeliveryMode mode) throws Exception {
    DemoOptions options =
        DemoOptions.defaults().withMode(mode).withRows(2_000, 1_000).withKills(List.of(Kill.CRASH));
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    DemoReport report;
    Path file;
    try (PrintStream console = new PrintStream(buffer, true, StandardCharsets.UTF_8);
        Transcript transcript = Transcript.open(console, Path.of("target"), mode)) {
      report = StreamingDemo.run(spark, options, transcript.out());
      report.print(transcript.out());
      file = transcript.path();
    }
    String text = buffer.toString(StandardCharsets.UTF_8);
    System.out.println(text);
    assertEquals(Transcript.file(Path.of("target"), mode), file);
    assertEquals(text, Files.readString(file), "the transcript file holds what the console got");
    assertTrue(text.contains("kill 1/1"), text);
    assertTrue(text.contains("RESULT: "), text);
    assertEquals(2_000, report.rowsIn(), text);
    assertEquals(0, report.lost(), text);
    assertEquals(1, report.restarts(), text);
    assertTrue(report.offsetsConsistent(), text);
    assertTrue(report.batches() >= 2, text);
    return report;
  }

  @Test
  void transactionalWritesEveryRowOnce() throws Exception {
    DemoReport report = run(DeliveryMode.TRANSACTIONAL);
    assertEquals(0, report.duplicates());
    assertEquals(2_000, report.rowsOut());
    assertTrue(report.passed(), report.problems().toString());
  }

  @Test
  void idempotentWritesEveryRowOnce() throws Exception {
    DemoReport report = run(DeliveryMode.IDEMPOTENT);
    assertEquals(0, report.duplicates());
    assertEquals(2_000, report.rowsOut());
    assertTrue(report.passed(), report.problems().toString());
  }

  @Test
  void producerWritesEveryRowOnceThoughTheReplayedBatchIsPushedAgain() throws Exception {
    DemoReport report = run(DeliveryMode.PRODUCER);
    assertTrue(
        report.kills().get(0).contains("runs again"), "a batch was replayed: " + report.kills());
    assertEquals(0, report.duplicates());
    assertEquals(2_000, report.rowsOut());
    assertTrue(report.passed(), report.problems().toString());
  }

  @Test
  void atLeastOnceWritesTheReplayedBatchTwiceAndLosesNothing() throws Exception {
    DemoReport report = run(DeliveryMode.AT_LEAST_ONCE);
    assertTrue(report.duplicates() > 0, "the replayed batch is written again: " + report);
    assertEquals(report.rowsIn() + report.duplicates(), report.rowsOut());
    assertTrue(report.passed(), report.problems().toString());
  }
}
