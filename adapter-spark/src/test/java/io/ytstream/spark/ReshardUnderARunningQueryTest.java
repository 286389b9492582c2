package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ytstream.core.model.YPath;
import io.ytstream.spark.config.YtSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A queue resharded under a running transactional query: the new partitions are placed by a batch
 * of their own, then read from their first row, and every row reaches the output exactly once.
 */
class ReshardUnderARunningQueryTest {

  private final SparkSession spark = SharedSpark.get();

  @AfterEach
  void resetMode() {
    spark.conf().unset(YtSettings.TRANSACTIONAL);
  }

  @Test
  void newPartitionsAreReadExactlyOnce() throws Exception {
    spark.conf().set(YtSettings.TRANSACTIONAL, "true");
    TestCluster c = TestCluster.create(spark, "reshard");
    c.queue("//q", 2).consumer("//c", "//q").orderedTable("//out", 1);
    c.produce("//q", 0, 0, 5);
    c.produce("//q", 1, 100, 105);
    StreamingQuery q =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .load("//q")
            .writeStream()
            .format("yt")
            .option("path", "//out")
            .option("checkpointLocation", "yt:///ckpt/reshard")
            .trigger(Trigger.ProcessingTime(100))
            .start();
    try {
      Await.until(
          Duration.ofSeconds(60),
          () -> c.rows("//out").size() == 10,
          () -> c.ids("//out").toString());
      c.cluster.reshard(YPath.of("//q"), 4);
      c.produce("//q", 2, 200, 207);
      c.produce("//q", 3, 300, 303);
      c.produce("//q", 0, 5, 8);
      Await.until(
          Duration.ofSeconds(60),
          () -> c.consumerTotal("//c", "//q") == 23,
          () -> c.consumerOffsets("//c", "//q").toString());
    } finally {
      q.stop();
    }
    List<Long> expected = new ArrayList<>(TestCluster.range(0, 8));
    expected.addAll(TestCluster.range(100, 105));
    expected.addAll(TestCluster.range(200, 207));
    expected.addAll(TestCluster.range(300, 303));
    List<Long> ids = new ArrayList<>(c.ids("//out"));
    ids.sort(null);
    assertEquals(expected, ids, "every row once, the new partitions' included");
    assertEquals(7, c.consumerOffset("//c", "//q", 2));
    assertEquals(3, c.consumerOffset("//c", "//q", 3));
  }
}
