package io.ytstream.spark;

import static org.apache.spark.sql.functions.array;
import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.call_udf;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ytstream.application.ServiceColumns;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What Spark allows in Real-time Mode, over the yt source in one query: a union of two queues read
 * as two streams, the service columns, a filter, explode, a UDF, a broadcast join with a static
 * table, and a projection.
 */
class RealTimeQueryShapesTest {

  private final SparkSession spark = SharedSpark.get();

  @BeforeEach
  void shortBatches() {
    RealTimeTests.shortBatches(spark);
  }

  @AfterEach
  void reset() {
    RealTimeTests.reset(spark);
  }

  private Dataset<Row> read(String queue) {
    return spark
        .readStream()
        .format("yt")
        .option("consumer_path", "//c")
        .option("include_service_columns", "true")
        .load(queue);
  }

  @Test
  void filterExplodeUdfBroadcastJoinAndUnionOfTwoQueues() throws Exception {
    TestCluster c = TestCluster.create(spark, "rt-shapes");
    c.queue("//q1", 1).queue("//q2", 1).consumer("//c", "//q1", "//q2");
    c.produce("//q1", 0, 0, 6);
    c.produce("//q2", 0, 100, 106);
    spark
        .udf()
        .register(
            "shout", (UDF1<String, String>) s -> s.toUpperCase(Locale.ROOT), DataTypes.StringType);
    StructType labelsSchema =
        new StructType().add("k", DataTypes.LongType).add("label", DataTypes.StringType);
    Dataset<Row> labels =
        spark.createDataFrame(
            List.of(
                RowFactory.create(0L, "zero"),
                RowFactory.create(1L, "one"),
                RowFactory.create(2L, "two")),
            labelsSchema);
    StreamingQuery q =
        read("//q1")
            .union(read("//q2"))
            .filter(col("id").mod(2).equalTo(0))
            .withColumn("word", explode(array(col("payload"), concat(col("payload"), lit("!")))))
            .withColumn("loud", call_udf("shout", col("word")))
            .join(broadcast(labels), col("id").mod(3).equalTo(col("k")))
            .select(col("id"), col("loud"), col("label"), col(ServiceColumns.ROW_INDEX))
            .writeStream()
            .foreach(new CollectingForeachWriter("rt-shapes"))
            .outputMode("update")
            .option("checkpointLocation", "yt:///ckpt/rt-shapes")
            .trigger(Trigger.RealTime(RealTimeTests.BATCH))
            .start();
    List<String> expected = new ArrayList<>();
    String[] names = {"zero", "one", "two"};
    for (long base : new long[] {0, 100}) {
      for (long id = base; id < base + 6; id += 2) {
        long rowIndex = id - base;
        expected.add(id + "|P" + id + "|" + names[(int) (id % 3)] + "|" + rowIndex);
        expected.add(id + "|P" + id + "!|" + names[(int) (id % 3)] + "|" + rowIndex);
      }
    }
    expected.sort(String::compareTo);
    try {
      Await.until(
          Duration.ofSeconds(60),
          () -> CollectingForeachWriter.rows("rt-shapes").size() >= expected.size(),
          () -> "" + CollectingForeachWriter.rows("rt-shapes"));
    } finally {
      q.stop();
    }
    List<String> seen = new ArrayList<>(CollectingForeachWriter.rows("rt-shapes"));
    seen.sort(String::compareTo);
    assertEquals(expected, seen);
  }
}
