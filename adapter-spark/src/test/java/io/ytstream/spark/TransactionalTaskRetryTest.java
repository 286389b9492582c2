package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.spark.config.YtSettings;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Spark retries task attempts ({@code local[2,4]}) and, after an authorized committer fails, lets a
 * retry commit the same partition. In transactional mode a task that fails half-way through
 * inserting its rows into the batch transaction must therefore make the batch fail, not let the
 * retry add the partition's rows a second time.
 */
class TransactionalTaskRetryTest {

  private final SparkSession spark = SharedSpark.get();

  @AfterEach
  void resetMode() {
    spark.conf().unset(YtSettings.TRANSACTIONAL);
    spark.conf().unset(YtSettings.DYN_BATCH_SIZE);
  }

  @Test
  void aTaskThatFailsAfterInsertingPartOfItsRowsAbortsTheBatchInsteadOfDuplicating()
      throws Exception {
    TestCluster c = TestCluster.create(spark, "task-retry");
    c.queue("//q", 1).consumer("//c", "//q").orderedTable("//out", 1);
    c.produce("//q", 0, 0, 3);
    spark.conf().set(YtSettings.TRANSACTIONAL, "true");
    spark.conf().set(YtSettings.DYN_BATCH_SIZE, "1"); // one insert per row
    // The single task inserts row 0, then its second insert fails.
    c.cluster.faults().skipNext(ClusterOperation.INSERT, 1);
    c.cluster.faults().failNext(ClusterOperation.INSERT, 1, YtErrorCode.GENERIC, "injected");

    assertThrows(StreamingQueryException.class, () -> run("yt:///ckpt/retry"));
    assertEquals(1, c.cluster.faults().firedCount(ClusterOperation.INSERT));
    assertTrue(c.ids("//out").isEmpty(), "the batch committed nothing: " + c.ids("//out"));
    assertEquals(0, c.consumerTotal("//c", "//q"));
    assertTrue(c.cluster.liveTransactions().isEmpty());

    run("yt:///ckpt/retry");
    assertEquals(TestCluster.range(0, 3), c.ids("//out"));
    assertEquals(3, c.consumerTotal("//c", "//q"));
  }

  @Test
  void aTaskThatFailsAfterInsertingAndCannotAbortMakesTheBatchFailOnTheDriver() throws Exception {
    TestCluster c = TestCluster.create(spark, "task-retry-no-abort");
    c.queue("//q", 1).consumer("//c", "//q").orderedTable("//out", 1);
    c.produce("//q", 0, 0, 3);
    spark.conf().set(YtSettings.TRANSACTIONAL, "true");
    spark.conf().set(YtSettings.DYN_BATCH_SIZE, "1"); // one insert per row
    // The first attempt inserts row 0, its second insert fails and so does its abort: the
    // transaction lives on with row 0, and Spark lets a retry insert rows 0..2 into it.
    c.cluster.faults().skipNext(ClusterOperation.INSERT, 1);
    c.cluster.faults().failNext(ClusterOperation.INSERT, 1, YtErrorCode.GENERIC, "injected");
    c.cluster.faults().failNext(ClusterOperation.ABORT, 1, YtErrorCode.GENERIC, "abort lost");

    StreamingQueryException e =
        assertThrows(StreamingQueryException.class, () -> run("yt:///ckpt/no-abort"));
    assertEquals(1, c.cluster.faults().firedCount(ClusterOperation.ABORT));
    assertTrue(e.getMessage().contains("task attempt 0 of partition 0"), "names the attempt: " + e);
    assertTrue(c.ids("//out").isEmpty(), "the batch committed nothing: " + c.ids("//out"));
    assertEquals(0, c.consumerTotal("//c", "//q"));
    assertTrue(c.cluster.liveTransactions().isEmpty());

    run("yt:///ckpt/no-abort");
    assertEquals(TestCluster.range(0, 3), c.ids("//out"));
    assertEquals(3, c.consumerTotal("//c", "//q"));
  }

  private void run(String ckpt) throws Exception {
    StreamingQuery q =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .load("//q")
            .writeStream()
            .format("yt")
            .option("path", "//out")
            .option("checkpointLocation", ckpt)
            .trigger(Trigger.AvailableNow())
            .start();
    try {
      q.awaitTermination();
    } finally {
      q.stop();
    }
  }
}
