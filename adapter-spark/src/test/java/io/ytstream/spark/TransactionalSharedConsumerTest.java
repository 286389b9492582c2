package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.spark.config.YtSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two transactional queries on one consumer (each with its own checkpoint, as a second deployment
 * or an old driver that never stopped would run): their batch transactions race for the consumer's
 * row. The loser fails, whichever way it loses (its transaction loses the row lock at commit, the
 * consumer has already moved when it reads it, or the advance finds another offset), with a message
 * that names the cause, as at-least-once does: another query or an old driver uses the consumer.
 */
class TransactionalSharedConsumerTest {

  private final SparkSession spark = SharedSpark.get();

  @AfterEach
  void reset() {
    spark.conf().unset(YtSettings.TRANSACTIONAL);
  }

  @Test
  void theQueryThatLosesTheConsumerSaysAnotherQueryUsesIt() throws Exception {
    spark.conf().set(YtSettings.TRANSACTIONAL, "true");
    TestCluster c = TestCluster.create(spark, "tx-shared-consumer");
    c.queue("//q", 2).consumer("//c", "//q").orderedTable("//out1", 1).orderedTable("//out2", 1);
    AtomicBoolean producing = new AtomicBoolean(true);
    Thread producer =
        new Thread(
            () -> {
              long next = 0;
              while (producing.get()) {
                c.produce("//q", (int) (next % 2), next, next + 20);
                next += 20;
                try {
                  Thread.sleep(5);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "shared-consumer-producer");
    producer.setDaemon(true);
    producer.start();
    List<StreamingQuery> queries = new ArrayList<>();
    try {
      queries.add(start("//out1", "yt:///ckpt/shared-1"));
      queries.add(start("//out2", "yt:///ckpt/shared-2"));
      Await.until(
          Duration.ofSeconds(60),
          () -> queries.stream().anyMatch(q -> !q.isActive()),
          () -> "both queries still run; out1 " + c.rows("//out1").size() + " rows");
    } finally {
      producing.set(false);
      producer.join();
      for (StreamingQuery q : queries) {
        q.stop();
      }
    }
    List<String> messages = new ArrayList<>();
    for (StreamingQuery q : queries) {
      if (q.exception().isDefined()) {
        StreamingQueryException e = q.exception().get();
        messages.add(e.getMessage());
      }
    }
    assertTrue(!messages.isEmpty(), "one query failed");
    for (String m : messages) {
      assertTrue(m.contains("another query or an old driver"), m);
      assertTrue(m.contains("//c"), "names the consumer: " + m);
    }
  }

  private StreamingQuery start(String out, String ckpt) throws Exception {
    return spark
        .readStream()
        .format("yt")
        .option("consumer_path", "//c")
        .option("max_rows_per_partition", "200")
        .load("//q")
        .writeStream()
        .format("yt")
        .option("path", out)
        .option("checkpointLocation", ckpt)
        .trigger(Trigger.ProcessingTime(0))
        .start();
  }
}
