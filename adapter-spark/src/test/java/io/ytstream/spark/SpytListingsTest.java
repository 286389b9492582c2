package io.ytstream.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.floor;
import static org.apache.spark.sql.functions.length;
import static org.apache.spark.sql.functions.rand;
import static org.apache.spark.sql.functions.window;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.config.YtSettings;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The listings of SPYT's streaming documentation, written in Java, run unchanged. */
class SpytListingsTest {

  private final SparkSession spark = SharedSpark.get();

  @AfterEach
  void reset() {
    spark.conf().unset(YtSettings.DYN_BATCH_SIZE);
  }

  /** "Queue to table" (Scala listing): ProcessingTime(2000), checkpoint in YTsaurus. */
  @Test
  void queueToTable() throws Exception {
    TestCluster c = TestCluster.create(spark, "spyt-q2t");
    c.queue("//home/spark/streaming/queue", 2)
        .consumer("//home/spark/streaming/consumer", "//home/spark/streaming/queue")
        .orderedTable("//home/spark/streaming/result", 2);
    c.produce("//home/spark/streaming/queue", 0, 0, 30);
    c.produce("//home/spark/streaming/queue", 1, 100, 120);

    Dataset<org.apache.spark.sql.Row> numbers =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//home/spark/streaming/consumer")
            .load("//home/spark/streaming/queue");
    StreamingQuery query =
        numbers
            .writeStream()
            .option("checkpointLocation", "yt:///home/spark/streaming/checkpoints")
            .trigger(Trigger.ProcessingTime(2000))
            .format("yt")
            .option("path", "//home/spark/streaming/result")
            .start();
    try {
      query.processAllAvailable();
    } finally {
      query.stop();
    }
    List<Long> expected = new ArrayList<>(TestCluster.range(0, 30));
    expected.addAll(TestCluster.range(100, 120));
    assertEquals(expected, c.ids("//home/spark/streaming/result"));
    assertEquals(
        50, c.consumerTotal("//home/spark/streaming/consumer", "//home/spark/streaming/queue"));
    assertTrue(
        c.cluster.exists(YPath.of("//home/spark/streaming/checkpoints/commits/0")),
        "the checkpoint is in Cypress");
  }

  /** "Queue to table" (Python listing): select data, add data_length = length(data). */
  @Test
  void queueToTableWithATransformation() throws Exception {
    TestCluster c = TestCluster.create(spark, "spyt-py");
    c.cluster.createOrderedTable(
        YPath.of("//q"), List.of(new Column("data", "string", false, false)), 1);
    c.consumer("//c", "//q")
        .orderedTable(
            "//result",
            List.of(
                new Column("data", "string", false, false),
                new Column("data_length", "int64", false, false)),
            1);
    c.cluster
        .outputTables()
        .append(
            YPath.of("//q"),
            List.of(Row.of("data", "a"), Row.of("data", "bbb"), Row.of("data", "")));

    StreamingQuery query =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .load("//q")
            .select(col("data"))
            .withColumn("data_length", length(col("data")))
            .writeStream()
            .format("yt")
            .option("checkpointLocation", "yt:///ckpt/py")
            .trigger(Trigger.ProcessingTime(2000))
            .option("path", "//result")
            .start();
    try {
      query.processAllAvailable();
    } finally {
      query.stop();
    }
    Map<String, Long> lengths = new TreeMap<>();
    for (Row r : c.rows("//result")) {
      lengths.put((String) r.get("data"), (Long) r.get("data_length"));
    }
    assertEquals(Map.of("a", 1L, "bbb", 3L, "", 0L), lengths);
  }

  /**
   * "Rows per batch": spark.yt.write.dynBatchSize=100, max_rows_per_partition=1000, append. Each
   * batch reads at most 1000 rows of the partition; each write request holds at most 100 rows (one
   * commit timestamp per request in the output's $timestamp column).
   */
  @Test
  void rowsPerBatchAndWriteRequestSize() throws Exception {
    spark.conf().set("spark.yt.write.dynBatchSize", "100");
    TestCluster c = TestCluster.create(spark, "spyt-rows");
    c.queue("//q", 1).consumer("//c", "//q");
    c.orderedTable(
        "//out",
        List.of(
            new Column("id", "int64", false, false),
            new Column("payload", "string", false, false),
            new Column("$timestamp", "uint64", false, false)),
        1);
    c.consumer("//outc", "//out");
    c.produce("//q", 0, 0, 2500);

    StreamingQuery query =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .option("max_rows_per_partition", 1000)
            .load("//q")
            .writeStream()
            .outputMode("append")
            .format("yt")
            .option("path", "//out")
            .option("checkpointLocation", "yt:///ckpt/rows")
            .trigger(Trigger.ProcessingTime(0))
            .start();
    try {
      query.processAllAvailable();
      List<Long> batchRows = new ArrayList<>();
      for (StreamingQueryProgress p : query.recentProgress()) {
        if (p.numInputRows() > 0) {
          batchRows.add(p.numInputRows());
        }
      }
      assertEquals(List.of(1000L, 1000L, 500L), batchRows);
    } finally {
      query.stop();
    }
    assertEquals(TestCluster.range(0, 2500), c.ids("//out"));
    Map<Long, Integer> perRequest = new TreeMap<>();
    List<QueueRow> written =
        c.cluster
            .queueReader()
            .pull(
                new ConsumerId(c.name, YPath.of("//outc")),
                new PartitionId(new QueueId(c.name, YPath.of("//out")), 0),
                0,
                10_000);
    assertEquals(2500, written.size());
    for (QueueRow r : written) {
      perRequest.merge(r.timestamp().orElseThrow(), 1, Integer::sum);
    }
    assertEquals(25, perRequest.size(), "2500 rows in requests of 100: " + perRequest.values());
    assertTrue(
        perRequest.values().stream().allMatch(n -> n == 100), perRequest.values().toString());
  }

  /**
   * "Checkpoints in YTsaurus": the rate source, a watermarked sliding-window count, checkpoints in
   * yt:///, foreachBatch appending each batch with a static yt write. The window struct is
   * flattened into two timestamp columns, as a table without composite columns needs (see
   * compositeTypesKeepTheirTypes for struct columns).
   */
  @Test
  void checkpointWithForeachBatchAndAWindowedAggregation() throws Exception {
    TestCluster c = TestCluster.create(spark, "spyt-ckpt");
    c.orderedTable(
        "//home/spark/streaming/result",
        List.of(
            new Column("window_start", "timestamp", false, false),
            new Column("window_end", "timestamp", false, false),
            new Column("num", "int64", false, false),
            new Column("count", "int64", false, false)),
        1);
    VoidFunction2<Dataset<org.apache.spark.sql.Row>, Long> appendBatch =
        (df, batchId) ->
            df.write().format("yt").mode("append").save("//home/spark/streaming/result");
    StreamingQuery query =
        spark
            .readStream()
            .format("rate")
            .option("rowsPerSecond", 5)
            .load()
            .select(col("timestamp"), floor(rand().multiply(10)).as("num"))
            .withWatermark("timestamp", "1 second")
            .groupBy(window(col("timestamp"), "2 seconds", "1 second"), col("num"))
            .count()
            .select(
                expr("window.start").as("window_start"),
                expr("window.end").as("window_end"),
                col("num"),
                col("count"))
            .writeStream()
            .option("checkpointLocation", "yt:///home/spark/streaming/checkpoints")
            .trigger(Trigger.ProcessingTime(1000))
            .foreachBatch(appendBatch)
            .start();
    try {
      Await.until(
          Duration.ofSeconds(90),
          () -> c.rows("//home/spark/streaming/result").size() >= 5,
          () -> c.rows("//home/spark/streaming/result").toString());
    } finally {
      query.stop();
    }
    Set<String> windows = new HashSet<>();
    for (Row r : c.rows("//home/spark/streaming/result")) {
      long start = (Long) r.get("window_start");
      long end = (Long) r.get("window_end");
      assertEquals(2_000_000L, end - start, "a 2 s window in microseconds");
      assertTrue((Long) r.get("count") > 0);
      assertTrue(windows.add(start + "/" + r.get("num")), "each window is appended once: " + r);
    }
    assertTrue(
        c.cluster.exists(YPath.of("//home/spark/streaming/checkpoints/offsets/0")),
        "the checkpoint is in Cypress");
    assertTrue(
        c.cluster.exists(YPath.of("//home/spark/streaming/checkpoints/state")),
        "the aggregation's state store is in Cypress too");
  }

  /**
   * "Composite types": read option parsing_type_v3=true, write option write_type_v3=true. The
   * queue's list, struct and dict columns arrive as Spark array, struct and map (the query uses
   * them as such) and land in the output's typed columns unchanged.
   */
  @Test
  void compositeTypesKeepTheirTypes() throws Exception {
    TestCluster c = TestCluster.create(spark, "spyt-composite");
    YtType tags = YtType.list(YtPrimitive.UTF8);
    YtType point =
        YtType.struct(
            YtType.member("x", YtPrimitive.DOUBLE),
            YtType.member("y", YtType.optional(YtPrimitive.DOUBLE)));
    YtType counts = YtType.dict(YtPrimitive.UTF8, YtPrimitive.UINT64);
    List<Column> queue =
        List.of(
            Column.of("id", YtPrimitive.INT64, false),
            Column.of("tags", tags, false),
            Column.of("point", point, false),
            Column.of("counts", YtType.optional(counts), false));
    c.cluster.createOrderedTable(YPath.of("//q"), queue, 1);
    c.consumer("//c", "//q");
    List<Column> out = new ArrayList<>(queue);
    out.add(Column.of("tag_count", YtPrimitive.INT32, false));
    out.add(Column.of("x", YtPrimitive.DOUBLE, false));
    c.cluster.createOrderedTable(YPath.of("//out"), out, 1);
    Map<String, Object> p1 = new java.util.LinkedHashMap<>();
    p1.put("x", 1.5);
    p1.put("y", null);
    c.cluster
        .outputTables()
        .append(
            YPath.of("//q"),
            List.of(
                Row.of(
                    "id",
                    1L,
                    "tags",
                    List.of("a", "b"),
                    "point",
                    p1,
                    "counts",
                    List.of(List.of("k", -1L))),
                Row.of(
                    "id",
                    2L,
                    "tags",
                    List.of(),
                    "point",
                    Map.of("x", -0.0, "y", 2.0),
                    "counts",
                    null)));

    StreamingQuery query =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .option("parsing_type_v3", "true")
            .load("//q")
            .withColumn("tag_count", org.apache.spark.sql.functions.size(col("tags")))
            .withColumn("x", col("point.x"))
            .writeStream()
            .format("yt")
            .option("write_type_v3", "true")
            .option("path", "//out")
            .option("checkpointLocation", "yt:///ckpt/composite")
            .trigger(Trigger.ProcessingTime(2000))
            .start();
    try {
      query.processAllAvailable();
    } finally {
      query.stop();
    }
    List<Row> rows = c.rows("//out");
    assertEquals(2, rows.size(), rows.toString());
    assertEquals(List.of("a", "b"), rows.get(0).get("tags"));
    assertEquals(p1, rows.get(0).get("point"));
    assertEquals(List.of(List.of("k", -1L)), rows.get(0).get("counts"));
    assertEquals(2L, rows.get(0).get("tag_count"));
    assertEquals(1.5, rows.get(0).get("x"));
    assertEquals(Map.of("x", -0.0, "y", 2.0), rows.get(1).get("point"));
    assertEquals(0L, rows.get(1).get("tag_count"));
    assertEquals(null, rows.get(1).get("counts"));
  }
}
