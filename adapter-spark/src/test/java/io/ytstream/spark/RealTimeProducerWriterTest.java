package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.ytstream.core.model.YPath;
import io.ytstream.spark.writers.YtProducerForeachWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The producer writer in Real-time Mode, end to end over the in-memory cluster. */
class RealTimeProducerWriterTest {

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
  void aRealTimeQueryRestartedMidStreamWritesEveryRowIntoTheQueueExactlyOnce() throws Exception {
    TestCluster c = TestCluster.create(spark, "rt-producer");
    c.queue("//q", 2).consumer("//c", "//q").orderedTable("//out", 2);
    c.cluster.createQueueProducer(YPath.of("//producer"));
    c.produce("//q", 0, 0, 10);
    YtProducerForeachWriter writer =
        YtProducerForeachWriter.builder().path("//out").producerPath("//producer").build();
    String checkpoint = "yt:///ckpt/rt-producer";
    try (LogCapture skips = new LogCapture("were already in")) {
      StreamingQuery q = RealTimeWritersTest.start(spark, writer, true, checkpoint);
      try {
        RealTimeWritersTest.awaitIds(c, 10);
        c.produce("//q", 1, 100, 105);
        RealTimeWritersTest.awaitIds(c, 15);
      } finally {
        q.stop();
      }
      // Stopped mid-batch: the batch's rows are in the queue, its end is not logged; the restart
      // reads them again and pushes them again through the same sessions.
      c.produce("//q", 0, 10, 12);
      StreamingQuery again = RealTimeWritersTest.start(spark, writer, true, checkpoint);
      try {
        RealTimeWritersTest.awaitIds(c, 17);
        Await.until(
            Duration.ofSeconds(30),
            () -> c.consumerTotal("//c", "//q") == 17,
            () -> "consumer at " + c.consumerOffsets("//c", "//q"));
      } finally {
        again.stop();
      }
      // The restart did push rows the queue had: the server skipped them.
      assertFalse(skips.leaks().isEmpty(), "the restart replayed no row");
    }
    List<Long> expected = new ArrayList<>(TestCluster.range(0, 12));
    expected.addAll(TestCluster.range(100, 105));
    assertEquals(expected, c.ids("//out"));
  }
}
