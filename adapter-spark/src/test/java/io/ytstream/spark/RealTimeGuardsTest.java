package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.spark.config.YtSettings;
import io.ytstream.spark.realtime.RealTimeQueries;
import java.time.Duration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What Real-time Mode refuses: more queue partitions than task slots (also summed over a union),
 * and the yt sink (with the alternatives in the message); with Spark's allowlist off the yt sink
 * runs and rows show up at batch boundaries, except in transactional mode, which is refused.
 */
class RealTimeGuardsTest {

  private final SparkSession spark = SharedSpark.get();

  @BeforeEach
  void shortBatches() {
    RealTimeTests.shortBatches(spark);
  }

  @AfterEach
  void reset() {
    RealTimeTests.reset(spark);
    spark.conf().unset(YtSettings.TRANSACTIONAL);
  }

  @Test
  void moreQueuePartitionsThanTaskSlotsFailsAtStartNamingBothNumbers() throws Exception {
    TestCluster c = TestCluster.create(spark, "rt-slots");
    // The shared session is local[2,4]: two slots for three partitions.
    c.queue("//q", 3).consumer("//c", "//q");
    c.produce("//q", 2, 0, 3);
    String m = startFailure(read("//q"), "rt-slots");
    assertTrue(m.contains("reads 3 partitions") && m.contains("has 2 task slots"), m);
  }

  @Test
  void aUnionOfYtStreamsIsCheckedForTheSumOfTheirPartitions() throws Exception {
    TestCluster c = TestCluster.create(spark, "rt-slots-union");
    // Two slots: each queue alone fits (1 and 2 partitions), the union's 3 tasks do not.
    c.queue("//q1", 1).queue("//q2", 2).consumer("//c", "//q1", "//q2");
    c.produce("//q1", 0, 0, 3);
    c.produce("//q2", 1, 100, 103);
    String m = startFailure(read("//q1").union(read("//q2")), "rt-slots-union");
    assertTrue(
        m.contains("reads 3 partitions {//q1=1, //q2=2}") && m.contains("has 2 task slots"), m);
  }

  private Dataset<Row> read(String queue) {
    return spark.readStream().format("yt").option("consumer_path", "//c").load(queue);
  }

  /**
   * Starts {@code stream} in Real-time Mode; returns the message it fails with, having read
   * nothing.
   */
  private static String startFailure(Dataset<Row> stream, String name) throws Exception {
    StreamingQuery q =
        stream
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
    assertTrue(CollectingForeachWriter.seen(name).isEmpty(), "nothing was read");
    return e.getMessage();
  }

  @Test
  void sparkRefusesTheYtSinkAtStart() {
    TestCluster c = TestCluster.create(spark, "rt-sink");
    c.queue("//q", 1).consumer("//c", "//q").orderedTable("//out", 1);
    // Spark checks its sink allowlist in start(), on the caller's thread, before any ytstream
    // code learns the trigger: this is Spark's message, and the README says what to use.
    Exception e = assertThrows(Exception.class, () -> startYtSink("yt:///ckpt/rt-sink"));
    assertTrue(
        e.getMessage().contains("OPERATOR_OR_SINK_NOT_IN_ALLOWLIST")
            && e.getMessage().contains("YtTable"),
        e.getMessage());
  }

  @Test
  void withSparksAllowlistOffTheYtSinkWritesAtBatchBoundaries() throws Exception {
    TestCluster c = TestCluster.create(spark, "rt-sink-off");
    c.queue("//q", 1).consumer("//c", "//q").orderedTable("//out", 1);
    spark.conf().set(RealTimeQueries.ALLOWLIST_CHECK, "false");
    c.produce("//q", 0, 0, 4);
    StreamingQuery q = null;
    try (LogCapture log = new LogCapture("rows become visible only at batch boundaries")) {
      q = startYtSink("yt:///ckpt/rt-sink-off");
      Await.until(Duration.ofSeconds(60), () -> !log.leaks().isEmpty(), () -> "no warning");
      assertTrue(log.leaks().get(0).contains("YtExactlyOnceForeachWriter"), log.leaks().get(0));
      Await.until(
          Duration.ofSeconds(60), () -> c.rows("//out").size() >= 4, () -> "" + c.ids("//out"));
    } finally {
      if (q != null) {
        q.stop();
      }
    }
  }

  @Test
  void theTransactionalYtSinkIsRefusedBeforeItsFirstBatchNamingTheFix() throws Exception {
    TestCluster c = TestCluster.create(spark, "rt-sink-tx");
    c.queue("//q", 1).consumer("//c", "//q").orderedTable("//out", 1);
    spark.conf().set(RealTimeQueries.ALLOWLIST_CHECK, "false");
    spark.conf().set(YtSettings.TRANSACTIONAL, "true");
    c.produce("//q", 0, 0, 4);
    StreamingQuery q = startYtSink("yt:///ckpt/rt-sink-tx");
    StreamingQueryException e =
        assertThrows(
            StreamingQueryException.class,
            () -> q.awaitTermination(Duration.ofSeconds(60).toMillis()));
    String m = e.getMessage();
    assertTrue(
        m.contains("spark.yt.streaming.transactional=true cannot run in Real-time Mode")
            && m.contains("YtExactlyOnceForeachWriter")
            && m.contains("//out"),
        m);
    assertEquals(0, c.rows("//out").size(), "refused before a row was written");
    assertEquals(0, c.consumerTotal("//c", "//q"), "and before the consumer moved");
  }

  private StreamingQuery startYtSink(String ckpt) throws Exception {
    return spark
        .readStream()
        .format("yt")
        .option("consumer_path", "//c")
        .load("//q")
        .writeStream()
        .format("yt")
        .option("path", "//out")
        .outputMode("update")
        .option("checkpointLocation", ckpt)
        .trigger(Trigger.RealTime(RealTimeTests.BATCH))
        .start();
  }
}
