package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.ForeachWriter;
import org.apache.spark.sql.Row;
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

  /**
   * A real-time query of //q with consumer //c into {@code sink}, checkpoints under {@code name}.
   */
  private StreamingQuery start(String name, ForeachWriter<Row> sink) throws Exception {
    return spark
        .readStream()
        .format("yt")
        .option("consumer_path", "//c")
        .load("//q")
        .writeStream()
        .foreach(sink)
        .outputMode("update")
        .option("checkpointLocation", "yt:///ckpt/" + name)
        .trigger(Trigger.RealTime(RealTimeTests.BATCH))
        .start();
  }

  @Test
  void readsRowsAsTheyArriveAndMovesTheConsumerAtBatchBoundaries() throws Exception {
    TestCluster c = TestCluster.create(spark, "rt-source");
    c.queue("//q", 2).consumer("//c", "//q");
    c.produce("//q", 0, 0, 5);
    StreamingQuery q = start("rt-source", new CollectingForeachWriter("rt-source"));
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

  @Test
  void rowsStillBufferedAtTheDeadlineStartTheNextBatchAndArriveOnce() throws Exception {
    TestCluster c = TestCluster.create(spark, "rt-carry");
    c.queue("//q", 1).consumer("//c", "//q");
    // A pull brings up to 1,000 rows; at 2 ms a row a 1 s batch ends with some still buffered.
    c.produce("//q", 0, 0, 2_000);
    try (LogCapture carried = new LogCapture("rows its predecessor pulled")) {
      StreamingQuery q = start("rt-carry", new SlowForeachWriter("rt-carry"));
      try {
        Await.until(
            Duration.ofSeconds(60),
            () -> CollectingForeachWriter.seen("rt-carry").size() >= 2_000,
            () -> CollectingForeachWriter.seen("rt-carry").size() + " rows");
      } finally {
        q.stop();
      }
      List<Long> seen = new ArrayList<>(CollectingForeachWriter.seen("rt-carry"));
      seen.sort(Long::compare);
      assertEquals(TestCluster.range(0, 2_000), seen, "every row once");
      assertTrue(q.recentProgress().length >= 3, "several batches: " + q.recentProgress().length);
      assertFalse(carried.leaks().isEmpty(), "a task started with rows its predecessor pulled");
    }
  }

  /** Collects rows as {@link CollectingForeachWriter} does, 2 ms a row. */
  private static final class SlowForeachWriter extends ForeachWriter<Row> {

    private static final long serialVersionUID = 1L;

    private final CollectingForeachWriter rows;

    SlowForeachWriter(String name) {
      this.rows = new CollectingForeachWriter(name);
    }

    @Override
    public boolean open(long partitionId, long epochId) {
      return rows.open(partitionId, epochId);
    }

    @Override
    public void process(Row row) {
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      rows.process(row);
    }

    @Override
    public void close(Throwable errorOrNull) {
      rows.close(errorOrNull);
    }
  }
}
