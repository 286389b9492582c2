package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.ClusterOperation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamReader;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * {@code starting_offsets} places a query that has neither a checkpoint nor a consumer position;
 * where the consumer has a position it is refused, saying why.
 */
class StartingOffsetsSparkTest {

  private final SparkSession spark = SharedSpark.get();

  private DataStreamReader reader() {
    return spark.readStream().format("yt").option("consumer_path", "//c");
  }

  private static List<Long> run(Dataset<Row> df, String checkpoint) throws Exception {
    List<Long> ids = Collections.synchronizedList(new ArrayList<>());
    StreamingQuery q =
        df.writeStream()
            .option("checkpointLocation", checkpoint)
            .trigger(Trigger.AvailableNow())
            .foreachBatch(
                (batch, id) -> {
                  for (Row r : batch.select("id").collectAsList()) {
                    ids.add(r.getLong(0));
                  }
                })
            .start();
    try {
      q.awaitTermination();
    } finally {
      q.stop();
    }
    List<Long> out = new ArrayList<>(ids);
    out.sort(Long::compare);
    return out;
  }

  private static String failure(Executable action) {
    Throwable t = assertThrows(Throwable.class, action);
    StringBuilder all = new StringBuilder();
    for (Throwable e = t; e != null; e = e.getCause()) {
      all.append(e.getMessage()).append(" | ");
    }
    return all.toString();
  }

  private static void assertMentions(String message, String... parts) {
    for (String part : parts) {
      assertTrue(message.contains(part), "expected '" + part + "' in: " + message);
    }
  }

  private static TestCluster queueWithRows(SparkSession spark, String name) {
    TestCluster c = TestCluster.create(spark, name);
    c.queue("//q", 2).consumer("//c", "//q");
    c.produce("//q", 0, 0, 8);
    c.produce("//q", 1, 100, 108);
    return c;
  }

  @Test
  void latestReadsOnlyRowsThatArriveLater() throws Exception {
    TestCluster c = queueWithRows(spark, "startlatest");
    Dataset<Row> df = reader().option("starting_offsets", "latest").load("//q");
    assertEquals(List.of(), run(df, "yt:///ckpt/startlatest"));
    assertEquals(16, c.consumerTotal("//c", "//q"), "the consumer stands at the end");
    c.produce("//q", 0, 8, 10);
    c.produce("//q", 1, 108, 109);
    assertEquals(List.of(8L, 9L, 108L), run(df, "yt:///ckpt/startlatest"));
  }

  @Test
  void earliestStartsAtTheFirstRowStillThereWithoutDataLoss() throws Exception {
    TestCluster c = queueWithRows(spark, "startearliest");
    c.cluster.trimRows(YPath.of("//q"), 0, 3);
    List<Long> expected = new ArrayList<>(TestCluster.range(3, 8));
    expected.addAll(TestCluster.range(100, 108));
    assertEquals(
        expected,
        run(reader().option("starting_offsets", "earliest").load("//q"), "yt:///ckpt/startearly"));
  }

  @Test
  void jsonPlacesEachPartition() throws Exception {
    queueWithRows(spark, "startjson");
    List<Long> expected = new ArrayList<>(TestCluster.range(5, 8));
    expected.addAll(TestCluster.range(100, 108));
    assertEquals(
        expected,
        run(
            reader().option("starting_offsets", "{\"//q\": {\"0\": 5, \"1\": -2}}").load("//q"),
            "yt:///ckpt/startjson"));
  }

  @Test
  void aConsumerWithAPositionRefusesTheOptionAndNothingIsRead() {
    TestCluster c = queueWithRows(spark, "startrefused");
    c.cluster
        .consumerOffsets()
        .advance(
            new ConsumerId(c.name, YPath.of("//c")),
            new PartitionId(new QueueId(c.name, YPath.of("//q")), 0),
            OptionalLong.empty(),
            2);
    Dataset<Row> df = reader().option("starting_offsets", "latest").load("//q");
    c.cluster.faults().skipNext(ClusterOperation.PULL, 1_000);
    String m = failure(() -> run(df, "yt:///ckpt/startrefused"));
    assertMentions(
        m,
        "option starting_offsets is for a query the consumer has no position for",
        "consumer //c already holds offsets",
        "the consumer is where this query starts",
        "Remove starting_offsets");
    assertTrue(
        1_000 - c.cluster.faults().pendingCount(ClusterOperation.PULL) <= 1,
        "no row read but the source's one-row check at start");
    assertEquals(2, c.consumerTotal("//c", "//q"), "the consumer did not move");
    assertTrue(
        c.cluster.checkpoints().status(YPath.of("//ckpt/startrefused/offsets/0")).isEmpty(),
        "no batch was planned");
    c.cluster.faults().clearPending();
  }

  @Test
  void badValuesAndStaticReadOptionsAreRefusedNamingTheOption() {
    TestCluster c = queueWithRows(spark, "startbad");
    c.cluster.faults().skipNext(ClusterOperation.PULL, 1_000);
    String m = failure(() -> reader().option("starting_offsets", "soon").load("//q"));
    assertMentions(m, "option starting_offsets: 'soon' is not earliest, latest, or JSON");
    assertEquals(1_000, c.cluster.faults().pendingCount(ClusterOperation.PULL), "nothing read");
    Dataset<Row> df = reader().option("ending_offsets", "latest").load("//q");
    m = failure(() -> run(df, "yt:///ckpt/startbad"));
    assertMentions(m, "option ending_offsets is for a static read", "remove it");
    assertTrue(1_000 - c.cluster.faults().pendingCount(ClusterOperation.PULL) <= 2);
    assertEquals(0, c.consumerTotal("//c", "//q"));
    c.cluster.faults().clearPending();
  }
}
