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
import io.ytstream.spark.writers.YtProducerForeachWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamWriter;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The zombie case for producer sessions: two live drivers of one queue-to-queue job on one
 * checkpoint and one consumer, as {@link TwoLiveDriversTest} has them for the transactional sink
 * (this JVM and a child JVM, both over HTTP against one emulator, rows arriving all the while).
 * Both name their sessions by the checkpoint's query id, so each one's session creation fences the
 * other's pushes (3102). Whatever each driver does (runs, is fenced, loses to Spark's checkpoint
 * guard or to the consumer's fencing), after the survivor, or a restart of this JVM's driver, has
 * drained the queue, the output queue holds every source row exactly once.
 */
class ProducerTwoLiveDriversTest {

  private static final String QUEUE = "//q";
  private static final String CONSUMER = "//c";
  private static final String OUT = "//out";
  private static final String PRODUCER = "//producer";
  private static final String CHECKPOINT = "//ckpt/producer-zombie";

  @RegisterExtension
  final YtEmulatorExtension yt = new YtEmulatorExtension(EmulatorOptions.defaults());

  private final SparkSession spark = SharedSpark.get();

  @AfterEach
  void resetSession() {
    spark.conf().unset(YtSettings.PROXY);
  }

  /**
   * The job both drivers run: the queue into the output queue through the producer, by the {@code
   * yt} sink with {@code producer_path} ({@code sink}) or by the foreach producer writer.
   */
  static StreamingQuery start(
      SparkSession spark,
      String queue,
      String consumer,
      String out,
      String producer,
      String checkpoint,
      boolean sink)
      throws TimeoutException {
    DataStreamWriter<org.apache.spark.sql.Row> writer =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", consumer)
            .option("max_rows_per_partition", "500")
            .option("include_service_columns", Boolean.toString(!sink))
            .load(queue)
            .writeStream();
    writer =
        sink
            ? writer.format("yt").option("path", out).option("producer_path", producer)
            : writer.foreach(
                YtProducerForeachWriter.builder()
                    .path(out)
                    .producerPath(producer)
                    .maxBufferedRows(20)
                    .build());
    return writer
        .option("checkpointLocation", checkpoint)
        .trigger(Trigger.ProcessingTime(0))
        .start();
  }

  @Test
  void foreachWriterTwoDriversOnOneCheckpointPushEverySourceRowOnce(YtEmulator emulator)
      throws Exception {
    twoDrivers(emulator, false);
  }

  @Test
  void sinkTwoDriversOnOneCheckpointPushEverySourceRowOnce(YtEmulator emulator) throws Exception {
    twoDrivers(emulator, true);
  }

  private void twoDrivers(YtEmulator emulator, boolean sink) throws Exception {
    long began = System.nanoTime();
    EmulatorCluster c = new EmulatorCluster(emulator);
    c.queue(QUEUE, 2).consumer(CONSUMER, QUEUE).orderedTable(OUT, 2);
    c.cluster.createQueueProducer(YPath.of(PRODUCER));
    long[] next = {0, 1_000_000};
    List<Long> produced = new ArrayList<>();
    produce(c, next, produced, 150);
    spark.conf().set(YtSettings.PROXY, c.url());

    String checkpoint = "yt:/" + CHECKPOINT;
    StreamingQuery first = start(spark, QUEUE, CONSUMER, OUT, PRODUCER, checkpoint, sink);
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
            "producer-two-drivers-feed");
    producer.setDaemon(true);
    String firstOutcome;
    String secondOutcome;
    StreamingQuery drainer = first;
    try (SecondDriverProcess second =
        SecondDriverProcess.start(
            c.url(), QUEUE, CONSUMER, OUT, checkpoint, PRODUCER, sink ? "sink" : "foreach")) {
      try {
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
        Thread.sleep(3_000);
      } finally {
        producing.set(false);
        producer.join();
      }
      firstOutcome = outcome(first);
      secondOutcome =
          second.failure().map(m -> "failed: " + m).orElse(second.ended() ? "stopped" : "runs");
      // One driver drains: the second when it still runs, else this JVM's, started again from
      // the checkpoint when it lost (a redeployment after the race).
      String drainedBy;
      if (!second.ended()) {
        first.stop();
        drainedBy = "the second";
      } else {
        second.stop(Duration.ofSeconds(20));
        drainedBy = "the first";
        if (!first.isActive()) {
          drainer = start(spark, QUEUE, CONSUMER, OUT, PRODUCER, checkpoint, sink);
          drainedBy = "a restart of the first";
        }
      }
      int total = produced.size();
      Await.until(
          Duration.ofSeconds(90),
          () -> c.consumerTotal(CONSUMER, QUEUE) == total && c.rows(OUT).size() >= total,
          () ->
              "the queue was not drained: consumer at "
                  + c.consumerTotal(CONSUMER, QUEUE)
                  + " of "
                  + total
                  + ", output "
                  + c.rows(OUT).size()
                  + " rows; first "
                  + firstOutcome
                  + "; second "
                  + second.reports()
                  + "\n"
                  + second.logTail());
      drainer.stop();
      second.stop(Duration.ofSeconds(20));
      System.err.printf(
          Locale.ROOT,
          "producer two live drivers (%s): %d rows in %.1f s; first %s (%d batches); second %s (%d"
              + " batches); drained by %s; second's log %s%n",
          sink ? "sink" : "foreach writer",
          total,
          (System.nanoTime() - began) / 1e9,
          firstOutcome,
          first.recentProgress().length,
          secondOutcome,
          second.reports().stream().filter(r -> r.startsWith("batch")).count(),
          drainedBy,
          second.logFile());
    } finally {
      first.stop();
      drainer.stop();
    }

    List<Long> output = c.ids(OUT);
    TreeMap<Long, Integer> copies = new TreeMap<>();
    for (long id : output) {
      copies.merge(id, 1, Integer::sum);
    }
    long duplicates = copies.values().stream().mapToLong(n -> n - 1).sum();
    TreeSet<Long> lost = new TreeSet<>(produced);
    lost.removeAll(copies.keySet());
    String outcomes = "first " + firstOutcome + "; second " + secondOutcome;
    assertEquals(0, duplicates, "duplicates in the output queue; " + outcomes);
    assertEquals(0, lost.size(), "source rows lost: " + lost + "; " + outcomes);
    List<Long> expected = new ArrayList<>(produced);
    expected.sort(Long::compare);
    assertEquals(expected, output, "every source row in the output exactly once; " + outcomes);
    StreamOffsets offsets = c.consumerOffsets(CONSUMER, QUEUE);
    QueueId queue = new QueueId(c.cluster.name(), YPath.of(QUEUE));
    assertEquals(next[0], offsets.getOrDefault(new PartitionId(queue, 0), 0), "partition 0");
    assertEquals(
        next[1] - 1_000_000, offsets.getOrDefault(new PartitionId(queue, 1), 0), "partition 1");
    // A driver that loses names the cause: Spark's guard on the checkpoint, the consumer's
    // fencing, or the producer session taken over by the other driver.
    for (String o : List.of(firstOutcome, secondOutcome)) {
      assertTrue(
          o.equals("runs")
              || o.contains("CONCURRENT_STREAM_LOG_UPDATE")
              || o.contains("another writer took over this session")
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
