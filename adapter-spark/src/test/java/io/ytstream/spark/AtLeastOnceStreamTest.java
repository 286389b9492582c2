package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;

/** The default mode end to end: queue to ordered table, checkpoint in yt:///, restart resumes. */
class AtLeastOnceStreamTest {

  private final SparkSession spark = SharedSpark.get();

  static StreamingQuery start(
      SparkSession spark, String queue, String consumer, String out, String ckpt) throws Exception {
    return spark
        .readStream()
        .format("yt")
        .option("consumer_path", consumer)
        .option("max_rows_per_partition", "7")
        .load(queue)
        .writeStream()
        .format("yt")
        .option("path", out)
        .option("checkpointLocation", ckpt)
        .trigger(Trigger.AvailableNow())
        .start();
  }

  @Test
  void copiesTheQueueAndAdvancesTheConsumer() throws Exception {
    TestCluster c = TestCluster.create(spark, "alo");
    c.queue("//q", 2).consumer("//c", "//q").orderedTable("//out", 2);
    c.produce("//q", 0, 0, 20);
    c.produce("//q", 1, 100, 110);

    StreamingQuery q = start(spark, "//q", "//c", "//out", "yt:///ckpt/alo");
    q.awaitTermination();

    List<Long> expected = new ArrayList<>(TestCluster.range(0, 20));
    expected.addAll(TestCluster.range(100, 110));
    assertEquals(expected, c.ids("//out"));
    assertEquals(20, c.consumerOffset("//c", "//q", 0));
    assertEquals(10, c.consumerOffset("//c", "//q", 1));

    // A restart from the checkpoint reads only the new rows.
    c.produce("//q", 1, 110, 115);
    start(spark, "//q", "//c", "//out", "yt:///ckpt/alo").awaitTermination();
    expected.addAll(TestCluster.range(110, 115));
    assertEquals(expected, c.ids("//out"));
    assertEquals(15, c.consumerOffset("//c", "//q", 1));
  }
}
