package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.emulator.YtEmulatorExtension;
import io.ytstream.spark.config.YtSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The zombie case in Spark: two live drivers of one transactional job on one checkpoint and one
 * consumer, as when a new deployment starts while the old driver still runs. The first runs in this
 * JVM, the second in a child JVM ({@link SecondDriverProcess}), both over HTTP against one
 * emulator, while a producer appends rows. Whatever each of them does (one loses to Spark's
 * checkpoint guard or to the consumer's fencing, or both go on), every source row is in the output
 * exactly once and the consumer ends at the queue's end.
 */
class TwoLiveDriversTest {

  private static final String QUEUE = "//q";
  private static final String CONSUMER = "//c";
  private static final String OUT = "//out";
  private static final String CHECKPOINT = "//ckpt/zombie";

  @RegisterExtension
  final YtEmulatorExtension yt = new YtEmulatorExtension(EmulatorOptions.defaults());

  private final SparkSession spark = SharedSpark.get();

  @AfterEach
  void resetSession() {
    spark.conf().unset(YtSettings.PROXY);
    spark.conf().unset(YtSettings.TRANSACTIONAL);
  }

  /** The job both drivers run. */
  static StreamingQuery start(
      SparkSession spark, String queue, String consumer, String out, String checkpoint)
      throws TimeoutException {
    return spark
        .readStream()
        .format("yt")
        .option("consumer_path", consumer)
        .option("max_rows_per_partition", "500")
        .load(queue)
        .writeStream()
        .format("yt")
        .option("path", out)
        .option("checkpointLocation", checkpoint)
        .trigger(Trigger.ProcessingTime(0))
        .start();
  }

  @Test
  void oneDriverLosesAndTheOtherWritesEveryRowOnce(YtEmulator emulator) throws Exception {
    long began = System.nanoTime();
    EmulatorCluster c = new EmulatorCluster(emulator);
    c.queue(QUEUE, 2).consumer(CONSUMER, QUEUE).orderedTable(OUT, 1);
    long[] next = {0, 1_000_000};
    List<Long> produced = new ArrayList<>();
    produce(c, next, produced, 150);
    spark.conf().set(YtSettings.PROXY, c.url());
    spark.conf().set(YtSettings.TRANSACTIONAL, "true");

    String checkpoint = "yt:/" + CHECKPOINT;
    StreamingQuery first = start(spark, QUEUE, CONSUMER, OUT, checkpoint);
    AtomicBoolean producing = new AtomicBoolean(true);
    Thread producer =
        new Thread(
            () -> {
              while (producing.get()) {
                synchronized (produced) {
                  produce(c, next, produced, 10);
                }
                try {
                  Thread.sleep(50);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "two-drivers-producer");
    producer.setDaemon(true);
    String firstOutcome;
    String secondOutcome;
    try (SecondDriverProcess second =
        SecondDriverProcess.start(c.url(), QUEUE, CONSUMER, OUT, checkpoint)) {
      try {
        // The child JVM starts its Spark while this one runs the first batches; on a loaded
        // machine either can take a while.
        Await.until(
            Duration.ofSeconds(90),
            () ->
                (c.newest(CHECKPOINT + "/commits") >= 0 || !first.isActive())
                    && (second.reported("running") || second.ended()),
            () ->
                "the drivers did not both start; first: "
                    + first.status()
                    + "; second: "
                    + second.reports()
                    + "\n"
                    + second.logTail());
        producer.start();
        // Rows arrive while both run, until the second has run a batch or one of them lost,
        // and a little longer.
        Await.until(
            Duration.ofSeconds(60),
            () -> second.reported("batch") || second.ended() || !first.isActive(),
            () -> "the second driver took no part: " + second.reports());
        Thread.sleep(2_000);
      } finally {
        producing.set(false);
        producer.join();
      }
      int total = produced.size();
      Await.until(
          Duration.ofSeconds(60),
          () -> c.consumerTotal(CONSUMER, QUEUE) == total && c.rows(OUT).size() >= total,
          () ->
              "the queue was not drained: consumer at "
                  + c.consumerTotal(CONSUMER, QUEUE)
                  + " of "
                  + total
                  + ", output "
                  + c.rows(OUT).size()
                  + " rows; first "
                  + (first.isActive() ? "runs" : "ended: " + first.exception())
                  + "; second "
                  + second.reports());
      firstOutcome = outcome(first);
      secondOutcome =
          second.failure().map(m -> "failed: " + m).orElse(second.ended() ? "stopped" : "runs");
      first.stop();
      second.stop(Duration.ofSeconds(20));
      System.err.printf(
          Locale.ROOT,
          "two live drivers: %d rows in %.1f s; first %s (%d batches); second %s (%d batches);"
              + " second's log %s%n",
          total,
          (System.nanoTime() - began) / 1e9,
          firstOutcome,
          first.recentProgress().length,
          secondOutcome,
          second.reports().stream().filter(r -> r.startsWith("batch")).count(),
          second.logFile());
    } finally {
      first.stop();
    }

    List<Long> expected = new ArrayList<>(produced);
    expected.sort(Long::compare);
    assertEquals(expected, c.ids(OUT), "every source row in the output exactly once");
    StreamOffsets offsets = c.consumerOffsets(CONSUMER, QUEUE);
    QueueId queue = new QueueId(c.cluster.name(), YPath.of(QUEUE));
    assertEquals(next[0], offsets.getOrDefault(new PartitionId(queue, 0), 0), "partition 0");
    assertEquals(
        next[1] - 1_000_000, offsets.getOrDefault(new PartitionId(queue, 1), 0), "partition 1");
    assertTrue(c.cluster.liveTransactions().isEmpty(), "no transaction left open");
    // A driver that loses fails with a message that names the cause: Spark's own guard when
    // the other driver wrote offsets/N first (the yt:/// rename does not replace a file), or the
    // sink's when the other driver's batch transaction took the consumer.
    for (String o : List.of(firstOutcome, secondOutcome)) {
      assertTrue(
          o.equals("runs")
              || o.contains("CONCURRENT_STREAM_LOG_UPDATE")
              || (o.contains("another query or an old driver is using the same consumer")
                  && o.contains(CONSUMER)),
          "each driver runs or lost naming the cause: " + o);
    }
  }

  private static String outcome(StreamingQuery q) {
    if (q.isActive()) {
      return "runs";
    }
    return q.exception().isDefined() ? "failed: " + q.exception().get().getMessage() : "stopped";
  }

  private static void produce(EmulatorCluster c, long[] next, List<Long> produced, int perTablet) {
    for (int tablet = 0; tablet < 2; tablet++) {
      c.produce(QUEUE, tablet, next[tablet], next[tablet] + perTablet);
      for (long id = next[tablet]; id < next[tablet] + perTablet; id++) {
        produced.add(id);
      }
      next[tablet] += perTablet;
    }
  }
}
