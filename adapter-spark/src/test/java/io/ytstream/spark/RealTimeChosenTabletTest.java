package io.ytstream.spark;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.delivery.ChosenOutputTablet;
import io.ytstream.core.model.YPath;
import io.ytstream.spark.writers.YtAppendForeachWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.ForeachWriter;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** YtAppendForeachWriter in Real-time Mode with the tablet the job chose per row. */
class RealTimeChosenTabletTest {

  private static final int OUT_TABLETS = 3;

  private final SparkSession spark = SharedSpark.get();

  @BeforeEach
  void shortBatches() {
    RealTimeTests.shortBatches(spark);
  }

  @AfterEach
  void reset() {
    RealTimeTests.reset(spark);
  }

  private StreamingQuery start(
      Function<Dataset<Row>, Dataset<Row>> select, ForeachWriter<Row> writer, String ckpt)
      throws Exception {
    Dataset<Row> df = spark.readStream().format("yt").option("consumer_path", "//c").load("//q");
    return select
        .apply(df)
        .writeStream()
        .foreach(writer)
        .outputMode("update")
        .option("checkpointLocation", ckpt)
        .trigger(Trigger.RealTime(RealTimeTests.BATCH))
        .start();
  }

  private void runAndCheck(
      String name,
      Function<Dataset<Row>, Dataset<Row>> select,
      Supplier<YtAppendForeachWriter> writer,
      ToIntFunction<Long> tabletOf)
      throws Exception {
    TestCluster c = TestCluster.create(spark, name);
    c.queue("//q", 2).consumer("//c", "//q").orderedTable("//out", OUT_TABLETS);
    c.produce("//q", 0, 0, 6);
    c.produce("//q", 1, 100, 104);
    StreamingQuery q = start(select, writer.get(), "yt:///ckpt/" + name);
    try {
      RealTimeWritersTest.awaitIds(c, 10);
    } finally {
      q.stop();
    }
    TreeSet<Integer> used = new TreeSet<>();
    for (int t = 0; t < OUT_TABLETS; t++) {
      for (io.ytstream.ports.Row r : c.cluster.rows(YPath.of("//out"), t, 0)) {
        long id = (Long) r.get("id");
        assertEquals(tabletOf.applyAsInt(id), t, "id " + id + " in tablet " + t);
        used.add(t);
      }
    }
    assertTrue(used.size() > 1, "the rows use more than one tablet: " + used);
    List<Long> expected = new ArrayList<>(TestCluster.range(0, 6));
    expected.addAll(TestCluster.range(100, 104));
    assertTrue(new TreeSet<>(c.ids("//out")).containsAll(expected), "" + c.ids("//out"));
  }

  @Test
  void aTabletIndexColumnPlacesEachRow() throws Exception {
    runAndCheck(
        "rt-chosen-index",
        df -> df.withColumn("$tablet_index", col("id").mod(OUT_TABLETS)),
        () -> YtAppendForeachWriter.builder().path("//out").build(),
        id -> (int) (id % OUT_TABLETS));
  }

  @Test
  void aKeyHashPlacesEachKeysRowsInOneTablet() throws Exception {
    runAndCheck(
        "rt-chosen-key",
        df -> df,
        () -> YtAppendForeachWriter.builder().path("//out").outputTabletKey("payload").build(),
        id -> ChosenOutputTablet.byKey(List.of("payload"), List.of("p" + id), OUT_TABLETS));
  }
}
