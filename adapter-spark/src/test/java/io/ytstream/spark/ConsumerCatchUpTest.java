package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;

/**
 * SPYT commits batch N to the consumer only when batch N+1 starts, so an idle queue leaves the
 * consumer one batch behind. ytstream brings it level at the next trigger even when no batch runs:
 * stop feeding the queue and watch the consumer reach the end of the last batch while the query
 * runs no further batch.
 */
class ConsumerCatchUpTest {

  private final SparkSession spark = SharedSpark.get();

  @Test
  void consumerReachesTheLastBatchWhenTheQueueGoesIdle() throws Exception {
    TestCluster c = TestCluster.create(spark, "idle");
    c.queue("//q", 2).consumer("//c", "//q").orderedTable("//out", 1);
    StreamingQuery q =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .load("//q")
            .writeStream()
            .format("yt")
            .option("path", "//out")
            .option("checkpointLocation", "yt:///ckpt/idle")
            .trigger(Trigger.ProcessingTime(100))
            .start();
    try {
      for (int round = 0; round < 2; round++) {
        final int r = round;
        long from = round * 10L;
        c.produce("//q", 0, from, from + 6);
        c.produce("//q", 1, 1000 + from, 1000 + from + 4);
        // The batch that reads these rows is written...
        Await.until(
            Duration.ofSeconds(60),
            () -> c.rows("//out").size() == (r + 1) * 10,
            () -> c.ids("//out").toString());
        // Without the catch-up, Spark would commit this batch only when a next batch with data
        // starts, and none does: the consumer would stay a batch behind.
        Await.until(
            Duration.ofSeconds(60),
            () -> c.consumerTotal("//c", "//q") == (r + 1) * 10L,
            () -> c.consumerOffsets("//c", "//q").toString());
        assertEquals((round + 1) * 6L, c.consumerOffset("//c", "//q", 0));
        assertEquals((round + 1) * 4L, c.consumerOffset("//c", "//q", 1));
        assertEquals((round + 1) * 10, c.rows("//out").size(), "every row written once");
      }
    } finally {
      q.stop();
    }
  }
}
