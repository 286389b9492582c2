package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.YPath;
import java.time.Duration;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;

/**
 * A queue re-created under a running query, with fewer partitions or with fewer rows than the query
 * has read, fails the query with a message that names the queue, the partition and the offsets, and
 * nothing of the new queue is written.
 */
class UntrustedQueuePositionsSparkTest {

  private final SparkSession spark = SharedSpark.get();

  /** Reads 4 rows from each of two partitions, re-creates the queue, and returns the failure. */
  private Throwable recreatedUnderARunningQuery(String name, int tablets, long rowsEach)
      throws Exception {
    TestCluster c = TestCluster.create(spark, name);
    c.queue("//q", 2).consumer("//c", "//q").orderedTable("//out", 1);
    c.produce("//q", 0, 0, 4);
    c.produce("//q", 1, 100, 104);
    StreamingQuery q =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .load("//q")
            .writeStream()
            .format("yt")
            .option("path", "//out")
            .option("checkpointLocation", "yt:///ckpt/" + name)
            .trigger(Trigger.ProcessingTime(500))
            .start();
    try {
      Await.until(
          Duration.ofSeconds(60),
          () -> c.rows("//out").size() == 8,
          () -> c.ids("//out").toString());
      c.cluster.checkpoints().delete(YPath.of("//q"), false);
      c.queue("//q", tablets).consumer("//c", "//q");
      for (int t = 0; t < tablets; t++) {
        c.produce("//q", t, 1000 + 100 * t, 1000 + 100 * t + rowsEach);
      }
      Await.until(Duration.ofSeconds(60), () -> !q.isActive(), () -> "the query still runs");
      StreamingQueryException e = q.exception().get();
      assertEquals(8, c.rows("//out").size(), "nothing of the re-created queue was written");
      List<Long> ids = c.ids("//out");
      assertEquals(List.of(0L, 1L, 2L, 3L, 100L, 101L, 102L, 103L), ids);
      return e;
    } finally {
      q.stop();
    }
  }

  private static String messages(Throwable t) {
    StringBuilder all = new StringBuilder();
    for (Throwable x = t; x != null; x = x.getCause()) {
      all.append(x.getMessage()).append('\n');
    }
    return all.toString();
  }

  @Test
  void aQueueWithFewerPartitionsFailsTheQuery() throws Exception {
    String m = messages(recreatedUnderARunningQuery("shrunk", 1, 9));
    assertTrue(
        m.contains(
            "queue //q has 1 partition(s) now, but the checkpoint holds offsets for partition 1 at"
                + " offset 4."),
        m);
    assertTrue(m.contains("new checkpointLocation"), m);
  }

  @Test
  void aBatchRunAgainAfterARestartIsCheckedToo() throws Exception {
    TestCluster c = TestCluster.create(spark, "replayed");
    c.queue("//q", 2).consumer("//c", "//q").orderedTable("//out", 1);
    c.produce("//q", 0, 0, 4);
    c.produce("//q", 1, 100, 104);
    startOnce("replayed").awaitTermination();
    assertEquals(8, c.rows("//out").size());
    // Batch 0 logged in offsets/0 but not in commits/0: the restart runs it again as it was.
    c.dropLastCommit("//ckpt/replayed");
    c.cluster.checkpoints().delete(YPath.of("//q"), false);
    c.queue("//q", 1).consumer("//c", "//q");
    c.produce("//q", 0, 1000, 1009);
    StreamingQuery again = startOnce("replayed");
    StreamingQueryException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            StreamingQueryException.class, again::awaitTermination);
    String m = messages(e);
    assertTrue(
        m.contains(
            "queue //q has 1 partition(s) now, but the checkpoint holds offsets for partition 1 at"
                + " offset 4."),
        m);
    assertEquals(8, c.rows("//out").size(), "nothing of the re-created queue was written");
  }

  private StreamingQuery startOnce(String name) throws Exception {
    return spark
        .readStream()
        .format("yt")
        .option("consumer_path", "//c")
        .load("//q")
        .writeStream()
        .format("yt")
        .option("path", "//out")
        .option("checkpointLocation", "yt:///ckpt/" + name)
        .trigger(Trigger.AvailableNow())
        .start();
  }

  @Test
  void aQueueWithFewerRowsThanReadFailsTheQuery() throws Exception {
    String m = messages(recreatedUnderARunningQuery("truncated", 2, 2));
    assertTrue(
        m.contains(
            "partition 0 of queue //q ends at row 2 (first readable row 0), below the checkpoint's"
                + " offset 4; partition 1 of queue //q ends at row 2"),
        m);
    assertTrue(m.contains("re-created or truncated"), m);
  }
}
