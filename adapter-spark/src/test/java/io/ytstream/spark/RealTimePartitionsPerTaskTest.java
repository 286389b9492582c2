package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.YPath;
import io.ytstream.spark.writers.YtAppendForeachWriter;
import io.ytstream.spark.writers.YtExactlyOnceForeachWriter;
import io.ytstream.spark.writers.YtProducerForeachWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.ForeachWriter;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Real-time Mode with several queue partitions per task ({@code real_time_partitions_per_task})
 * over the in-memory cluster, on the shared session's two slots: a queue of 16 tablets read by 2
 * tasks of 8, each writer keeping its guarantee, a restart resuming every partition, and the slot
 * check counting tasks. {@code LocalClusterRealTimePartitionsPerTaskTest} runs 16 on 4 slots with
 * executors in their own JVMs.
 */
class RealTimePartitionsPerTaskTest {

  static final int TABLETS = 16;

  private final SparkSession spark = SharedSpark.get();

  @BeforeEach
  void shortBatches() {
    RealTimeTests.shortBatches(spark);
  }

  @AfterEach
  void reset() {
    RealTimeTests.reset(spark);
  }

  private StreamingQuery start(ForeachWriter<Row> writer, int perTask, String ckpt)
      throws Exception {
    return start(writer, perTask, true, ckpt);
  }

  private StreamingQuery start(
      ForeachWriter<Row> writer, int perTask, boolean serviceColumns, String ckpt)
      throws Exception {
    return spark
        .readStream()
        .format("yt")
        .option("consumer_path", "//c")
        .option("include_service_columns", Boolean.toString(serviceColumns))
        .option("real_time_partitions_per_task", Integer.toString(perTask))
        .load("//q")
        .writeStream()
        .foreach(writer)
        .outputMode("update")
        .option("checkpointLocation", ckpt)
        .trigger(Trigger.RealTime(RealTimeTests.BATCH))
        .start();
  }

  /** Rows {@code tablet * 1000 + from .. tablet * 1000 + to - 1} into every tablet. */
  private static void produceEverywhere(TestCluster c, long from, long to, List<Long> expected) {
    for (int t = 0; t < TABLETS; t++) {
      c.produce("//q", t, t * 1000L + from, t * 1000L + to);
      expected.addAll(TestCluster.range(t * 1000L + from, t * 1000L + to));
    }
    expected.sort(Long::compare);
  }

  private static void awaitRows(TestCluster c, String table, int count) throws Exception {
    Await.until(
        Duration.ofSeconds(90),
        () -> c.rows(table).size() >= count,
        () -> c.rows(table).size() + " rows of " + count);
  }

  /** The consumer of every tablet at its row count: each partition's end merged and followed. */
  private static void awaitConsumerAtEveryEnd(TestCluster c, long rowsPerTablet) throws Exception {
    Await.until(
        Duration.ofSeconds(60),
        () -> {
          for (int t = 0; t < TABLETS; t++) {
            if (c.consumerOffset("//c", "//q", t) != rowsPerTablet) {
              return false;
            }
          }
          return true;
        },
        () -> "consumer at " + c.consumerOffsets("//c", "//q"));
  }

  @Test
  void exactlyOnceWriterOverSixteenPartitionsOnTwoSlotsWritesEveryRowOnceAcrossARestart()
      throws Exception {
    TestCluster c = TestCluster.create(spark, "rt-ppt-eo");
    c.queue("//q", TABLETS).consumer("//c", "//q");
    c.sortedTable("//out", RealTimeWritersTest.KEYED_OUTPUT);
    List<Long> expected = new ArrayList<>();
    produceEverywhere(c, 0, 5, expected);
    YtExactlyOnceForeachWriter writer = YtExactlyOnceForeachWriter.builder().path("//out").build();
    String ckpt = "yt:///ckpt/rt-ppt-eo";
    StreamingQuery q = start(writer, 8, ckpt);
    try {
      awaitRows(c, "//out", expected.size());
      // Only the first tablet of the second task moves: the others stay quiet.
      c.produce("//q", 8, 8005, 8008);
      expected.addAll(TestCluster.range(8005, 8008));
      expected.sort(Long::compare);
      awaitRows(c, "//out", expected.size());
    } finally {
      q.stop();
    }
    // Stopped mid-batch: the restart reads that batch again from the end of the last one, for
    // every partition, and overwrites the same keys.
    produceEverywhere(c, 10, 12, expected);
    StreamingQuery again = start(writer, 8, ckpt);
    try {
      awaitRows(c, "//out", expected.size());
      Await.until(
          Duration.ofSeconds(60),
          () -> c.consumerTotal("//c", "//q") == expected.size(),
          () -> "consumer at " + c.consumerOffsets("//c", "//q"));
    } finally {
      again.stop();
    }
    assertEquals(expected, c.ids("//out"), "every row exactly once");
  }

  @Test
  void appendWriterOverSixteenPartitionsOnTwoSlotsWritesEveryRow() throws Exception {
    TestCluster c = TestCluster.create(spark, "rt-ppt-append");
    c.queue("//q", TABLETS).consumer("//c", "//q").orderedTable("//out", 2);
    List<Long> expected = new ArrayList<>();
    produceEverywhere(c, 0, 4, expected);
    StreamingQuery q =
        start(
            YtAppendForeachWriter.builder().path("//out").build(), 8, false, "yt:///ckpt/rt-ppt-a");
    try {
      awaitRows(c, "//out", expected.size());
      produceEverywhere(c, 4, 6, expected);
      awaitRows(c, "//out", expected.size());
      awaitConsumerAtEveryEnd(c, 6);
    } finally {
      q.stop();
    }
    // At least once in general; with no failure and no restart each row is read once.
    assertEquals(expected, c.ids("//out"));
  }

  @Test
  void producerWriterOverSixteenPartitionsOnTwoSlotsWritesEveryRowOnceAcrossARestart()
      throws Exception {
    TestCluster c = TestCluster.create(spark, "rt-ppt-producer");
    c.queue("//q", TABLETS).consumer("//c", "//q").orderedTable("//out", 4);
    c.cluster.createQueueProducer(YPath.of("//producer"));
    List<Long> expected = new ArrayList<>();
    produceEverywhere(c, 0, 3, expected);
    YtProducerForeachWriter writer =
        YtProducerForeachWriter.builder().path("//out").producerPath("//producer").build();
    String ckpt = "yt:///ckpt/rt-ppt-producer";
    try (LogCapture skips = new LogCapture("were already in")) {
      StreamingQuery q = start(writer, 8, ckpt);
      try {
        awaitRows(c, "//out", expected.size());
      } finally {
        q.stop();
      }
      // The restart pushes the last batch's rows again, one session per source partition of
      // each task: the server skips them.
      produceEverywhere(c, 3, 5, expected);
      StreamingQuery again = start(writer, 8, ckpt);
      try {
        awaitRows(c, "//out", expected.size());
        awaitConsumerAtEveryEnd(c, 5);
      } finally {
        again.stop();
      }
      assertFalse(skips.leaks().isEmpty(), "the restart replayed no row");
    }
    assertEquals(expected, c.ids("//out"), "every row exactly once");
  }

  @Test
  void theSlotCheckCountsTasksAndNamesTheOption() throws Exception {
    TestCluster c = TestCluster.create(spark, "rt-ppt-slots");
    c.queue("//q", TABLETS).consumer("//c", "//q");
    c.produce("//q", 0, 0, 3);
    String name = "rt-ppt-slots";
    StreamingQuery q =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .option("real_time_partitions_per_task", "4")
            .load("//q")
            .writeStream()
            .foreach(new CollectingForeachWriter(name))
            .outputMode("update")
            .option("checkpointLocation", "yt:///ckpt/" + name)
            .trigger(Trigger.RealTime(RealTimeTests.BATCH))
            .start();
    StreamingQueryException e =
        assertThrows(
            StreamingQueryException.class,
            () -> q.awaitTermination(Duration.ofSeconds(60).toMillis()));
    String m = e.getMessage();
    assertTrue(
        m.contains("reads 16 partitions {//q=16} in 4 tasks (real_time_partitions_per_task=4)")
            && m.contains("has 2 task slots")
            && m.contains("option real_time_partitions_per_task=8 runs 2 tasks"),
        m);
    assertTrue(CollectingForeachWriter.seen(name).isEmpty(), "nothing was read");
  }

  @Test
  void aBadValueIsRefusedAtLoadNamingTheOptionTheValueAndTheFix() {
    TestCluster c = TestCluster.create(spark, "rt-ppt-bad");
    c.queue("//q", 2).consumer("//c", "//q");
    for (String bad : List.of("0", "-2", "four", "99999999999")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  spark
                      .readStream()
                      .format("yt")
                      .option("consumer_path", "//c")
                      .option("real_time_partitions_per_task", bad)
                      .load("//q"),
              bad);
      assertTrue(
          e.getMessage().contains("option real_time_partitions_per_task")
              && e.getMessage().contains("'" + bad + "'")
              && e.getMessage().contains("e.g. 4"),
          e.getMessage());
    }
    IllegalArgumentException staticRead =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                spark
                    .read()
                    .format("yt")
                    .option("real_time_partitions_per_task", "4")
                    .load("//q")
                    .count());
    assertTrue(
        staticRead.getMessage().contains("real_time_partitions_per_task sizes the tasks"),
        staticRead.getMessage());
  }
}
