package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The yt source in Real-time Mode: rows arrive while the batch runs; batches end and commit. */
class RealTimeSourceTest {

  private final SparkSession spark = SharedSpark.get();

  @BeforeEach
  void shortBatches() {
    RealTimeTests.shortBatches(spark);
  }

  @AfterEach
  void reset() {
    RealTimeTests.reset(spark);
  }

  @Test
  void readsRowsAsTheyArriveAndMovesTheConsumerAtBatchBoundaries() throws Exception {
    TestCluster c = TestCluster.create(spark, "rt-source");
    c.queue("//q", 2).consumer("//c", "//q");
    c.produce("//q", 0, 0, 5);
    StreamingQuery q =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .load("//q")
            .writeStream()
            .foreach(new CollectingForeachWriter("rt-source"))
            .outputMode("update")
            .option("checkpointLocation", "yt:///ckpt/rt-source")
            .trigger(Trigger.RealTime(RealTimeTests.BATCH))
            .start();
    try {
      Await.until(
          Duration.ofSeconds(60),
          () -> CollectingForeachWriter.seen("rt-source").size() >= 5,
          () -> "" + CollectingForeachWriter.seen("rt-source"));
      long before = System.nanoTime();
      c.produce("//q", 1, 100, 103);
      Await.until(
          Duration.ofSeconds(30),
          () -> CollectingForeachWriter.seen("rt-source").size() >= 8,
          () -> "" + CollectingForeachWriter.seen("rt-source"));
      long tookMs = (System.nanoTime() - before) / 1_000_000;
      List<Long> expected = new ArrayList<>(TestCluster.range(0, 5));
      expected.addAll(TestCluster.range(100, 103));
      List<Long> seen = new ArrayList<>(CollectingForeachWriter.seen("rt-source"));
      seen.sort(Long::compare);
      assertEquals(expected, seen);
      // The consumer follows at a batch boundary after the rows were read.
      Await.until(
          Duration.ofSeconds(30),
          () -> c.consumerTotal("//c", "//q") == 8,
          () -> "consumer at " + c.consumerOffsets("//c", "//q"));
      System.err.println("real-time: 3 rows seen " + tookMs + " ms after they were appended");
      assertTrue(q.isActive(), "the query keeps running");
    } finally {
      q.stop();
    }
  }
}
