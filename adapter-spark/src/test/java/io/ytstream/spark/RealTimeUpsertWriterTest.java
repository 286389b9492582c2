package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.writers.YtUpsertForeachWriter;
import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The upsert writer in Real-time Mode over the in-memory cluster, on the build's Spark (no stateful
 * Real-time queries before 4.3, so a projection keyed by a computed column stands in for an
 * aggregate's update rows: the latest row of each key wins, and a restart's replay converges).
 * Stateful queries on Spark 4.3: python/tests/test_real_time_stateful_restart.py.
 */
class RealTimeUpsertWriterTest {

  private static final List<Column> BY_K =
      List.of(new Column("k", "int64", true, true), new Column("id", "int64", false, false));

  private final SparkSession spark = SharedSpark.get();

  @BeforeEach
  void shortBatches() {
    RealTimeTests.shortBatches(spark);
  }

  @AfterEach
  void reset() {
    RealTimeTests.reset(spark);
  }

  private Dataset<Row> byK() {
    return spark
        .readStream()
        .format("yt")
        .option("consumer_path", "//c")
        .load("//q")
        .selectExpr("id % 3 AS k", "id");
  }

  private StreamingQuery start(Dataset<Row> rows) throws Exception {
    return rows.writeStream()
        .foreach(YtUpsertForeachWriter.builder().path("//out").rowSchema(rows.schema()).build())
        .outputMode("update")
        .option("checkpointLocation", "yt:///ckpt/rt-upsert")
        .trigger(Trigger.RealTime(RealTimeTests.BATCH))
        .start();
  }

  private static Map<Long, Long> table(TestCluster c) {
    Map<Long, Long> t = new TreeMap<>();
    c.rows("//out").forEach(r -> t.put((Long) r.get("k"), (Long) r.get("id")));
    return t;
  }

  private static void awaitTable(TestCluster c, Map<Long, Long> expected)
      throws InterruptedException {
    Await.until(Duration.ofSeconds(60), () -> table(c).equals(expected), () -> "" + table(c));
  }

  @Test
  void theLatestRowOfEachKeyWinsAndARestartConverges() throws Exception {
    TestCluster c = TestCluster.create(spark, "rt-upsert");
    c.queue("//q", 1).consumer("//c", "//q").sortedTable("//out", BY_K);
    c.produce("//q", 0, 0, 10);
    StreamingQuery q = start(byK());
    try {
      awaitTable(c, Map.of(0L, 9L, 1L, 7L, 2L, 8L));
    } finally {
      q.stop();
    }
    // Stopped mid-batch: the restart replays the batch's rows over the same keys, then goes on.
    c.produce("//q", 0, 10, 14);
    StreamingQuery again = start(byK());
    try {
      awaitTable(c, Map.of(0L, 12L, 1L, 13L, 2L, 11L));
      Await.until(
          Duration.ofSeconds(30),
          () -> c.consumerTotal("//c", "//q") == 14,
          () -> "consumer at " + c.consumerOffsets("//c", "//q"));
    } finally {
      again.stop();
    }
    assertEquals(3, c.rows("//out").size());
  }

  @Test
  void buildRefusesAnOrderedTableAndAQueryWithoutTheKey() throws Exception {
    TestCluster c = TestCluster.create(spark, "rt-upsert-build");
    c.queue("//q", 1)
        .consumer("//c", "//q")
        .orderedTable("//ordered", 1)
        .sortedTable("//out", BY_K);
    IllegalArgumentException ordered =
        assertThrows(
            IllegalArgumentException.class,
            () -> YtUpsertForeachWriter.builder().path("//ordered").build());
    assertTrue(
        ordered.getMessage().contains("//ordered is an ordered table")
            && ordered.getMessage().contains("YtAppendForeachWriter"),
        ordered.getMessage());
    Dataset<Row> noKey = byK().select("id");
    IllegalArgumentException missing =
        assertThrows(
            IllegalArgumentException.class,
            () -> YtUpsertForeachWriter.builder().path("//out").rowSchema(noKey.schema()).build());
    assertTrue(
        missing.getMessage().contains("key column k of //out is not a column of the query [id]"),
        missing.getMessage());
    // It travels to executors by Java serialization, without the token in its text.
    YtUpsertForeachWriter w = YtUpsertForeachWriter.builder().path("//out").token("s3cr3t").build();
    assertTrue(!w.toString().contains("s3cr3t"), w.toString());
    try (ObjectOutputStream out = new ObjectOutputStream(new ByteArrayOutputStream())) {
      out.writeObject(w);
    }
  }
}
