package io.ytstream.spark;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.delivery.ChosenOutputTablet;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.config.YtSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.ToIntFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The job chooses each row's output tablet, through the sink over the in-memory cluster: a {@code
 * $tablet_index} column or option {@code output_tablet_key}, in each delivery mode, across a rerun
 * of the last batch (the driver stopped after the sink committed it, before Spark logged it).
 */
class ChosenOutputTabletSparkTest {

  private static final int OUT_TABLETS = 3;

  private final SparkSession spark = SharedSpark.get();

  @AfterEach
  void reset() {
    spark.conf().unset(YtSettings.TRANSACTIONAL);
    spark.conf().unset(YtSettings.DYN_BATCH_SIZE);
  }

  private static TestCluster source(TestCluster c) {
    c.queue("//q", 2).consumer("//c", "//q").orderedTable("//out", OUT_TABLETS);
    c.cluster.createQueueProducer(YPath.of("//producer"));
    c.produce("//q", 0, 0, 10);
    c.produce("//q", 1, 100, 106);
    return c;
  }

  private Dataset<org.apache.spark.sql.Row> read() {
    return spark
        .readStream()
        .format("yt")
        .option("consumer_path", "//c")
        .option("max_rows_per_partition", "4")
        .load("//q");
  }

  private enum Mode {
    AT_LEAST_ONCE,
    TRANSACTIONAL,
    PRODUCER
  }

  private StreamingQuery start(
      Dataset<org.apache.spark.sql.Row> df, Mode mode, String ckpt, String tabletKey) {
    spark.conf().set(YtSettings.TRANSACTIONAL, Boolean.toString(mode == Mode.TRANSACTIONAL));
    var w =
        df.writeStream()
            .format("yt")
            .option("path", "//out")
            .option("checkpointLocation", ckpt)
            .trigger(Trigger.AvailableNow());
    if (mode == Mode.PRODUCER) {
      w = w.option("producer_path", "//producer");
    }
    if (tabletKey != null) {
      w = w.option("output_tablet_key", tabletKey);
    }
    try {
      return w.start();
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError(e);
    }
  }

  private void run(Dataset<org.apache.spark.sql.Row> df, Mode mode, String ckpt, String key)
      throws Exception {
    start(df, mode, ckpt, key).awaitTermination();
  }

  /** The ids each output tablet holds, in the order it holds them. */
  private static TreeMap<Integer, List<Long>> byTablet(TestCluster c) {
    TreeMap<Integer, List<Long>> out = new TreeMap<>();
    for (int t = 0; t < OUT_TABLETS; t++) {
      List<Long> ids = new ArrayList<>();
      for (Row r : c.cluster.rows(YPath.of("//out"), t, 0)) {
        ids.add((Long) r.get("id"));
      }
      out.put(t, ids);
    }
    return out;
  }

  private static List<Long> allIds() {
    List<Long> ids = new ArrayList<>(TestCluster.range(0, 10));
    ids.addAll(TestCluster.range(100, 106));
    return ids;
  }

  private static int idMod3(long id) {
    return (int) (id % OUT_TABLETS);
  }

  private static int payloadHash(long id) {
    return ChosenOutputTablet.byKey(List.of("payload"), List.of("p" + id), OUT_TABLETS);
  }

  /** Every id is in the tablet {@code tabletOf} gives it, and each source tablet's ids in order. */
  private static void assertPlaced(
      TreeMap<Integer, List<Long>> got, ToIntFunction<Long> tabletOf, boolean once) {
    List<Long> seen = new ArrayList<>();
    got.forEach(
        (t, ids) -> {
          for (long id : ids) {
            assertEquals(tabletOf.applyAsInt(id), t, "id " + id + " in tablet " + t);
          }
          List<Long> low = ids.stream().filter(i -> i < 100).distinct().toList();
          List<Long> high = ids.stream().filter(i -> i >= 100).distinct().toList();
          assertEquals(low.stream().sorted().toList(), low, "source order kept in tablet " + t);
          assertEquals(high.stream().sorted().toList(), high, "source order kept in tablet " + t);
          seen.addAll(ids);
        });
    List<Long> sorted = new ArrayList<>(seen);
    sorted.sort(Long::compare);
    if (once) {
      assertEquals(allIds(), sorted, "every row once");
    } else {
      assertTrue(sorted.containsAll(allIds()), "nothing lost");
    }
  }

  private void tabletIndexColumnAcrossARerun(Mode mode) throws Exception {
    TestCluster c = source(TestCluster.create(spark, "chosen-" + mode.name().toLowerCase()));
    Dataset<org.apache.spark.sql.Row> df = read().withColumn("$tablet_index", col("id").mod(3));
    run(df, mode, "yt:///ckpt/t", null);
    assertPlaced(byTablet(c), ChosenOutputTabletSparkTest::idMod3, true);
    c.dropLastCommit("//ckpt/t");
    run(df, mode, "yt:///ckpt/t", null);
    assertPlaced(byTablet(c), ChosenOutputTabletSparkTest::idMod3, mode != Mode.AT_LEAST_ONCE);
    assertEquals(16, c.consumerTotal("//c", "//q"));
    assertTrue(c.cluster.liveTransactions().isEmpty(), "no transaction left open");
  }

  @Test
  void aTabletIndexColumnPlacesEachRowTransactionallyEveryRowOnceAcrossARerun() throws Exception {
    tabletIndexColumnAcrossARerun(Mode.TRANSACTIONAL);
  }

  @Test
  void aTabletIndexColumnPlacesEachRowThroughProducerSessionsEveryRowOnceAcrossARerun()
      throws Exception {
    tabletIndexColumnAcrossARerun(Mode.PRODUCER);
  }

  @Test
  void aTabletIndexColumnPlacesEachRowAtLeastOnceAcrossARerun() throws Exception {
    tabletIndexColumnAcrossARerun(Mode.AT_LEAST_ONCE);
  }

  @Test
  void aKeyHashPlacesEachKeysRowsInOneTabletInEveryMode() throws Exception {
    for (Mode mode : Mode.values()) {
      TestCluster c = source(TestCluster.create(spark, "chosen-key-" + mode.ordinal()));
      run(read(), mode, "yt:///ckpt/k", "payload");
      c.dropLastCommit("//ckpt/k");
      run(read(), mode, "yt:///ckpt/k", "payload");
      assertPlaced(
          byTablet(c), ChosenOutputTabletSparkTest::payloadHash, mode != Mode.AT_LEAST_ONCE);
    }
  }

  @Test
  void aTabletOutOfRangeFailsTheBatchNamingColumnValueAndCountAndWritesNothingOfIt()
      throws Exception {
    for (Mode mode : List.of(Mode.TRANSACTIONAL, Mode.PRODUCER)) {
      TestCluster c = source(TestCluster.create(spark, "chosen-bad-" + mode.ordinal()));
      // Ids 3 and 100 ask for tablets 3 and 100 of 3: the first batch (0-3, 100-103) is refused.
      Dataset<org.apache.spark.sql.Row> df = read().withColumn("$tablet_index", col("id"));
      StreamingQuery q = start(df, mode, "yt:///ck", null);
      Exception e = assertThrows(Exception.class, q::awaitTermination);
      String message = rootMessages(e);
      assertTrue(
          message.contains("column $tablet_index is 3,")
              || message.contains("column $tablet_index is 100,"),
          message);
      assertTrue(message.contains("3 tablets"), message);
      assertEquals(List.of(), c.ids("//out"), mode + ": nothing of the batch is written");
      assertEquals(0, c.consumerTotal("//c", "//q"));
    }
  }

  @Test
  void aSortedOutputRefusesAChosenTablet() {
    TestCluster c = TestCluster.create(spark, "chosen-sorted");
    c.queue("//q", 1).consumer("//c", "//q");
    c.sortedTable(
        "//sorted",
        List.of(
            new Column("id", "int64", true, true), new Column("payload", "string", false, false)));
    var w =
        read()
            .writeStream()
            .format("yt")
            .option("path", "//sorted")
            .option("output_tablet_key", "id")
            .option("checkpointLocation", "yt:///ck");
    Exception e = assertThrows(Exception.class, () -> w.start().awaitTermination());
    String message = rootMessages(e);
    assertTrue(message.contains("output_tablet_key = 'id'"), message);
    assertTrue(message.contains("sorted table"), message);
  }

  private static String rootMessages(Throwable e) {
    StringBuilder out = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      out.append(t.getMessage()).append(" | ");
    }
    return out.toString();
  }
}
