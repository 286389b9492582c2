package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.ServiceColumns;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.writers.YtAppendForeachWriter;
import io.ytstream.spark.writers.YtExactlyOnceForeachWriter;
import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.spark.sql.ForeachWriter;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The ForeachWriters in Real-time Mode, end to end over the in-memory cluster. */
class RealTimeWritersTest {

  static final List<Column> KEYED_OUTPUT =
      List.of(
          new Column(ServiceColumns.TABLET_INDEX, "int64", true, true),
          new Column(ServiceColumns.ROW_INDEX, "int64", true, true),
          new Column("id", "int64", false, false),
          new Column("payload", "string", false, false));

  private final SparkSession spark = SharedSpark.get();

  @BeforeEach
  void shortBatches() {
    RealTimeTests.shortBatches(spark);
  }

  @AfterEach
  void reset() {
    RealTimeTests.reset(spark);
  }

  static StreamingQuery start(
      SparkSession spark, ForeachWriter<Row> writer, boolean serviceColumns, String ckpt)
      throws Exception {
    return spark
        .readStream()
        .format("yt")
        .option("consumer_path", "//c")
        .option("include_service_columns", Boolean.toString(serviceColumns))
        .load("//q")
        .writeStream()
        .foreach(writer)
        .outputMode("update")
        .option("checkpointLocation", ckpt)
        .trigger(Trigger.RealTime(RealTimeTests.BATCH))
        .start();
  }

  @Test
  void exactlyOnceWriterUpsertsByPositionAndARestartOverwritesTheSameKeys() throws Exception {
    TestCluster c = TestCluster.create(spark, "rt-exactly-once");
    c.queue("//q", 2).consumer("//c", "//q").sortedTable("//out", KEYED_OUTPUT);
    c.produce("//q", 0, 0, 10);
    YtExactlyOnceForeachWriter writer = YtExactlyOnceForeachWriter.builder().path("//out").build();
    StreamingQuery q = start(spark, writer, true, "yt:///ckpt/rt-eo");
    try {
      awaitIds(c, 10);
      c.produce("//q", 1, 100, 105);
      awaitIds(c, 15);
    } finally {
      q.stop();
    }
    // Stopped mid-batch: the batch's rows are written, its end is not logged; the restart
    // reads them again and upserts the same keys.
    c.produce("//q", 0, 10, 12);
    StreamingQuery again = start(spark, writer, true, "yt:///ckpt/rt-eo");
    try {
      awaitIds(c, 17);
      Await.until(
          Duration.ofSeconds(30),
          () -> c.consumerTotal("//c", "//q") == 17,
          () -> "consumer at " + c.consumerOffsets("//c", "//q"));
    } finally {
      again.stop();
    }
    List<Long> expected = new ArrayList<>(TestCluster.range(0, 12));
    expected.addAll(TestCluster.range(100, 105));
    assertEquals(expected, c.ids("//out"));
  }

  @Test
  void appendWriterAppendsEveryRowToAnOrderedTable() throws Exception {
    TestCluster c = TestCluster.create(spark, "rt-append");
    c.queue("//q", 2).consumer("//c", "//q").orderedTable("//out", 2);
    c.produce("//q", 0, 0, 6);
    c.produce("//q", 1, 100, 104);
    StreamingQuery q =
        start(
            spark, YtAppendForeachWriter.builder().path("//out").build(), false, "yt:///ckpt/rt-a");
    try {
      awaitIds(c, 10);
      c.produce("//q", 1, 104, 106);
      awaitIds(c, 12);
    } finally {
      q.stop();
    }
    List<Long> expected = new ArrayList<>(TestCluster.range(0, 6));
    expected.addAll(TestCluster.range(100, 106));
    assertTrue(new TreeSet<>(c.ids("//out")).containsAll(expected), "" + c.ids("//out"));
  }

  @Test
  void buildersCheckTheTableAndNeverShowTheToken() throws Exception {
    TestCluster c = TestCluster.create(spark, "rt-builders");
    c.orderedTable("//ordered", 1).sortedTable("//sorted", KEYED_OUTPUT);
    c.sortedTable(
        "//by-id",
        List.of(
            new Column("id", "int64", true, true), new Column("payload", "string", false, false)));
    IllegalArgumentException ordered =
        assertThrows(
            IllegalArgumentException.class,
            () -> YtExactlyOnceForeachWriter.builder().path("//ordered").build());
    assertTrue(ordered.getMessage().contains("YtAppendForeachWriter"), ordered.getMessage());
    IllegalArgumentException byId =
        assertThrows(
            IllegalArgumentException.class,
            () -> YtExactlyOnceForeachWriter.builder().path("//by-id").build());
    assertTrue(byId.getMessage().contains(ServiceColumns.TABLET_INDEX), byId.getMessage());
    IllegalArgumentException sorted =
        assertThrows(
            IllegalArgumentException.class,
            () -> YtAppendForeachWriter.builder().path("//sorted").build());
    assertTrue(sorted.getMessage().contains("YtExactlyOnceForeachWriter"), sorted.getMessage());
    IllegalArgumentException noPath =
        assertThrows(IllegalArgumentException.class, () -> YtAppendForeachWriter.builder().build());
    assertTrue(noPath.getMessage().contains("path("), noPath.getMessage());

    YtAppendForeachWriter w =
        YtAppendForeachWriter.builder().path("//ordered").token("s3cr3t-t0ken").build();
    assertFalse(w.toString().contains("s3cr3t-t0ken"), w.toString());
    // It travels to executors by Java serialization.
    try (ObjectOutputStream out = new ObjectOutputStream(new ByteArrayOutputStream())) {
      out.writeObject(w);
    }
  }

  static void awaitIds(TestCluster c, int count) throws InterruptedException {
    Await.until(
        Duration.ofSeconds(60), () -> c.rows("//out").size() >= count, () -> "" + c.ids("//out"));
  }
}
