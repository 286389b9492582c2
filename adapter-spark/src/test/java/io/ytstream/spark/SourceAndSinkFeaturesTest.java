package io.ytstream.spark;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.ServiceColumns;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.config.YtSettings;
import io.ytstream.types.yson.Yson;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Source metrics, data-loss skipping, several queues, types, static and update-mode writes. */
class SourceAndSinkFeaturesTest {

  private final SparkSession spark = SharedSpark.get();

  @AfterEach
  void reset() {
    spark.conf().unset(YtSettings.TRANSACTIONAL);
  }

  private static void runToEnd(StreamingQuery q) throws Exception {
    try {
      q.awaitTermination();
    } finally {
      q.stop();
    }
  }

  @Test
  void progressReportsRowsBehindPerPartition() throws Exception {
    TestCluster c = TestCluster.create(spark, "metrics");
    c.queue("//q", 2).consumer("//c", "//q").orderedTable("//out", 1);
    c.produce("//q", 0, 0, 20);
    c.produce("//q", 1, 100, 104);
    StreamingQuery q =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .option("max_rows_per_partition", "5")
            .load("//q")
            .writeStream()
            .format("yt")
            .option("path", "//out")
            .option("checkpointLocation", "yt:///ckpt/metrics")
            .trigger(Trigger.AvailableNow())
            .start();
    runToEnd(q);
    List<Map<String, String>> metrics = new ArrayList<>();
    for (StreamingQueryProgress p : q.recentProgress()) {
      if (p.numInputRows() > 0) {
        metrics.add(p.sources()[0].metrics());
      }
    }
    // Batch 0 reads [0,5) of partition 0 (15 behind) and all 4 rows of partition 1 (0 behind).
    Map<String, String> first = metrics.get(0);
    assertEquals("15", first.get("maxRowsBehindLatest"), first.toString());
    assertEquals("0", first.get("minRowsBehindLatest"), first.toString());
    assertEquals("7.5", first.get("avgRowsBehindLatest"), first.toString());
    assertEquals("15", first.get("totalRowsBehindLatest"), first.toString());
    Map<String, String> last = metrics.get(metrics.size() - 1);
    assertEquals("0", last.get("totalRowsBehindLatest"), last.toString());
    assertEquals(4, metrics.size(), "20 rows at 5 per batch");
  }

  @Test
  void trimmedRowsAreSkippedAndCountedWhenAllowed() throws Exception {
    TestCluster c = TestCluster.create(spark, "loss");
    c.queue("//q", 1).consumer("//c", "//q").orderedTable("//out", 1);
    c.produce("//q", 0, 0, 10);
    c.cluster.trimRows(YPath.of("//q"), 0, 4);
    StreamingQuery q =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .option("fail_on_data_loss", "false")
            .load("//q")
            .writeStream()
            .format("yt")
            .option("path", "//out")
            .option("checkpointLocation", "yt:///ckpt/loss")
            .trigger(Trigger.AvailableNow())
            .start();
    runToEnd(q);
    assertEquals(TestCluster.range(4, 10), c.ids("//out"));
    assertEquals(10, c.consumerOffset("//c", "//q", 0));
    String lost = q.lastProgress().sources()[0].metrics().get("lostRows");
    assertEquals("4", lost, "the skipped rows are reported");
  }

  @Test
  void severalQueuesForOneConsumer() throws Exception {
    TestCluster c = TestCluster.create(spark, "multi");
    c.queue("//q1", 1).queue("//q2", 2).consumer("//c", "//q1", "//q2").orderedTable("//out", 1);
    c.produce("//q1", 0, 0, 5);
    c.produce("//q2", 0, 100, 103);
    c.produce("//q2", 1, 200, 202);
    Dataset<org.apache.spark.sql.Row> both =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .option("include_service_columns", "true")
            .load("//q1,//q2");
    assertTrue(
        List.of(both.columns()).contains(ServiceColumns.QUEUE),
        "several queues add the source queue to the service columns");
    runToEnd(
        both.select("id", "payload")
            .writeStream()
            .format("yt")
            .option("path", "//out")
            .option("checkpointLocation", "yt:///ckpt/multi")
            .trigger(Trigger.AvailableNow())
            .start());
    List<Long> expected = new ArrayList<>(TestCluster.range(0, 5));
    expected.addAll(TestCluster.range(100, 103));
    expected.addAll(TestCluster.range(200, 202));
    assertEquals(expected, c.ids("//out"));
    assertEquals(5, c.consumerTotal("//c", "//q1"));
    assertEquals(5, c.consumerTotal("//c", "//q2"));

    // Repeated sources (a union of two streams) in transactional mode.
    spark.conf().set(YtSettings.TRANSACTIONAL, "true");
    c.produce("//q1", 0, 5, 8);
    c.produce("//q2", 1, 202, 204);
    c.orderedTable("//out2", 2);
    Dataset<org.apache.spark.sql.Row> one =
        spark.readStream().format("yt").option("consumer_path", "//c").load("//q1");
    Dataset<org.apache.spark.sql.Row> two =
        spark.readStream().format("yt").option("consumer_path", "//c").load("//q2");
    runToEnd(
        one.union(two)
            .writeStream()
            .format("yt")
            .option("path", "//out2")
            .option("checkpointLocation", "yt:///ckpt/multi2")
            .trigger(Trigger.AvailableNow())
            .start());
    // A new checkpoint starts from the consumer: only the rows produced since.
    assertEquals(List.of(5L, 6L, 7L, 202L, 203L), c.ids("//out2"));
    assertEquals(8, c.consumerTotal("//c", "//q1"));
    assertEquals(7, c.consumerTotal("//c", "//q2"));
  }

  @Test
  void primitiveTypesRoundTrip() throws Exception {
    TestCluster c = TestCluster.create(spark, "types");
    List<Column> columns =
        List.of(
            new Column("i8", "int8", false, false),
            new Column("i16", "int16", false, false),
            new Column("i32", "int32", false, false),
            new Column("i64", "int64", false, false),
            new Column("u8", "uint8", false, false),
            new Column("u16", "uint16", false, false),
            new Column("u32", "uint32", false, false),
            new Column("u64", "uint64", false, false),
            new Column("f", "float", false, false),
            new Column("d", "double", false, false),
            new Column("b", "boolean", false, false),
            new Column("s", "string", false, false),
            new Column("u", "utf8", false, false),
            new Column("day", "date", false, false),
            new Column("dt", "datetime", false, false),
            new Column("ts", "timestamp", false, false),
            new Column("iv", "interval", false, false),
            new Column("y", "any", false, false));
    c.cluster.createOrderedTable(YPath.of("//q"), columns, 1);
    c.consumer("//c", "//q").orderedTable("//out", columns, 1);
    Map<String, Object> values = new TreeMap<>();
    values.put("i8", -8L);
    values.put("i16", -1600L);
    values.put("i32", -320000L);
    values.put("i64", -6_400_000_000L);
    values.put("u8", 200L);
    values.put("u16", 60000L);
    values.put("u32", 4_000_000_000L);
    values.put("u64", 9_000_000_000_000L);
    values.put("f", 1.5);
    values.put("d", -2.25);
    values.put("b", true);
    values.put("s", "bytes");
    values.put("u", "текст");
    values.put("day", 19000L);
    values.put("dt", 1_700_000_000L);
    values.put("ts", 1_700_000_000_123_456L);
    values.put("iv", -42L);
    // A yson column holds yt-types' YSON value model (a byte[] there would be a YSON string).
    values.put("y", Yson.parse("{a=1; b=[x; %true]}"));
    Row row = Row.of(values);
    Row nulls = Row.of("i64", 1L);
    c.cluster.outputTables().append(YPath.of("//q"), List.of(row, nulls));

    Dataset<org.apache.spark.sql.Row> df =
        spark.readStream().format("yt").option("consumer_path", "//c").load("//q");
    StructType schema = df.schema();
    assertEquals(DataTypes.ByteType, schema.apply("i8").dataType());
    assertEquals(DataTypes.LongType, schema.apply("u32").dataType());
    assertEquals(DataTypes.FloatType, schema.apply("f").dataType());
    assertEquals(DataTypes.DateType, schema.apply("day").dataType());
    assertEquals(DataTypes.TimestampType, schema.apply("dt").dataType());
    assertEquals(DataTypes.BinaryType, schema.apply("y").dataType());
    runToEnd(
        df.writeStream()
            .format("yt")
            .option("path", "//out")
            .option("checkpointLocation", "yt:///ckpt/types")
            .trigger(Trigger.AvailableNow())
            .start());
    List<Row> out = c.rows("//out");
    assertEquals(2, out.size());
    for (String name : values.keySet()) {
      if (name.equals("y")) {
        // Spark sees binary YSON; the sink parses it back into the value model.
        Object expected = values.get(name);
        Object actual = out.get(0).get(name);
        assertTrue(
            Yson.equal(expected, actual), "y: " + describe(expected) + " vs " + describe(actual));
        continue;
      }
      assertEquals(Row.of(name, values.get(name)), Row.of(name, out.get(0).get(name)), name);
    }
    assertEquals(1L, out.get(1).get("i64"));
    assertEquals(null, out.get(1).get("s"));
  }

  @Test
  void staticBatchWrite() {
    TestCluster c = TestCluster.create(spark, "static");
    c.orderedTable("//out", 2);
    spark
        .range(0, 50)
        .select(col("id"), col("id").cast("string").as("payload"))
        .write()
        .format("yt")
        .mode("append")
        .save("//out");
    assertEquals(TestCluster.range(0, 50), c.ids("//out"));
  }

  @Test
  void updateModeUpsertsAnAggregationTransactionally() throws Exception {
    spark.conf().set(YtSettings.TRANSACTIONAL, "true");
    TestCluster c = TestCluster.create(spark, "update");
    c.queue("//q", 2).consumer("//c", "//q");
    c.sortedTable(
        "//counts",
        List.of(new Column("bucket", "int64", true, true), new Column("n", "int64", false, false)));
    c.produce("//q", 0, 0, 10);
    c.produce("//q", 1, 10, 15);
    for (int round = 0; round < 2; round++) {
      runToEnd(
          spark
              .readStream()
              .format("yt")
              .option("consumer_path", "//c")
              .option("max_rows_per_partition", "4")
              .load("//q")
              .groupBy(col("id").mod(3).as("bucket"))
              .count()
              .withColumnRenamed("count", "n")
              .writeStream()
              .outputMode("update")
              .format("yt")
              .option("path", "//counts")
              .option("checkpointLocation", "yt:///ckpt/update")
              .trigger(Trigger.AvailableNow())
              .start());
      c.produce("//q", 1, 15, 18);
    }
    Map<Long, Long> counts = new TreeMap<>();
    for (Row r : c.rows("//counts")) {
      counts.put((Long) r.get("bucket"), (Long) r.get("n"));
    }
    // ids 0..17 were read over the two rounds (18..20 are produced after the second stops).
    assertEquals(Map.of(0L, 6L, 1L, 6L, 2L, 6L), counts, "ids 0..17 by id % 3");
    assertEquals(18, c.consumerTotal("//c", "//q"));
  }

  private static String describe(Object value) {
    if (value instanceof Map<?, ?> map) {
      StringBuilder out = new StringBuilder(value.getClass().getSimpleName() + "{");
      map.forEach(
          (k, v) ->
              out.append(k.getClass().getSimpleName())
                  .append(':')
                  .append(k)
                  .append('=')
                  .append(describe(v))
                  .append(';'));
      return out.append('}').toString();
    }
    return value == null ? "null" : value.getClass().getSimpleName() + ":" + value;
  }
}
