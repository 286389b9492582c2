package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.inmemory.FaultInjector;
import io.ytstream.spark.config.YtSettings;
import io.ytstream.spark.writers.YtProducerForeachWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamWriter;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;

/**
 * Queue to queue through producer sessions in micro-batches, by the foreach producer writer and by
 * the {@code yt} sink with {@code producer_path}, under real Spark ({@code local[2,4]}: a failed
 * task attempt is retried): one query restarted from its checkpoint 20 times while faults are
 * injected, new rows arriving between runs. Afterwards the output queue holds every source row
 * exactly once: duplicates and losses are counted and both must be zero.
 *
 * <p>Faults, each at a call drawn from the seed: a pull fails inside a task; a push fails on every
 * attempt, so the task attempt fails and Spark runs it again; a push applies and then fails on
 * every attempt (the retried attempt pushes rows the queue already has); a push lost on the way or
 * its answer lost after it applied; a session creation applied with its answer lost; a consumer
 * advance applied and reported unknown; the driver stops after the pushes of batch N and before
 * Spark publishes {@code commits/N}, so the restart replays the batch. The foreach writer's pushes
 * are one row each, so a task that fails half-way has pushed part of its rows; the sink pushes a
 * task's share in chunks of one row into the share's transaction, committed when Spark lets the
 * task commit, so a task that fails half-way leaves nothing. {@code -Dytstream.chaos.seed=N} reruns
 * one seed.
 */
class ProducerChaosTest {

  private static final int RUNS = 20;
  private static final Pattern COMMIT_LOG = Pattern.compile(".*/commits/[0-9]+");
  private static final String OUT = "//out";
  private static final String PRODUCER = "//producer";

  private final SparkSession spark = SharedSpark.get();

  /** How the query writes the output queue. */
  enum Writer {
    /** {@code foreach(YtProducerForeachWriter)}: a session per source partition, one-row pushes. */
    FOREACH,
    /**
     * The {@code yt} sink with {@code producer_path}: a session per task, a share in one-row
     * chunks, one transaction.
     */
    SINK
  }

  @Test
  void foreachWriterInMicroBatchesWritesEverySourceRowOnce() throws Exception {
    chaos(Writer.FOREACH, Long.getLong("ytstream.chaos.seed", 4004));
  }

  @Test
  void sinkWithProducerPathWritesEverySourceRowOnce() throws Exception {
    chaos(Writer.SINK, Long.getLong("ytstream.chaos.seed", 5005));
  }

  private void chaos(Writer how, long seed) throws Exception {
    Random random = new Random(seed);
    TestCluster c =
        TestCluster.create(spark, "producer-chaos-" + how.name().toLowerCase(Locale.ROOT));
    spark.conf().set(YtSettings.PROXY, ChaosConnector.address(c.name));
    // The sink: chunks of one row, so a share of two rows is two pushes into its transaction and
    // a fault can hit a task between them.
    spark.conf().set(YtSettings.DYN_BATCH_SIZE, "1");
    c.queue("//q", 2).consumer("//c", "//q").orderedTable(OUT, 2);
    c.cluster.createQueueProducer(YPath.of(PRODUCER));
    // One row a push, pushed at once: a fault can hit a task between two of its pushes.
    YtProducerForeachWriter writer =
        YtProducerForeachWriter.builder()
            .path(OUT)
            .producerPath(PRODUCER)
            .maxBufferedRows(1)
            .flushInterval(Duration.ZERO)
            .build();
    String ckpt = "yt:///ckpt/producer-chaos";
    Runner runOnce = () -> runOnce(how, writer, ckpt);
    ChaosConnector.PushCounts pushes = ChaosConnector.pushes(c.name);
    List<Long> input = new ArrayList<>();
    long[] next = {0, 1_000_000};
    List<String> log = new ArrayList<>();
    Map<String, Integer> firedRuns = new HashMap<>();
    int failures = 0;
    int retriedAndCommitted = 0;
    List<String> faults =
        new ArrayList<>(
            List.of(
                "none",
                "pull-fails",
                "push-task-retried",
                "push-applied-task-retried",
                "push-lost-before-apply",
                "push-lost-after-apply",
                "session-answer-lost",
                "advance-unknown-applied",
                "driver-stops",
                "driver-stops"));
    Collections.shuffle(faults, random);
    String history = "";
    try {
      for (int run = 0; run < RUNS; run++) {
        int rows = 1 + random.nextInt(6);
        for (int i = 0; i < rows; i++) {
          int tablet = random.nextInt(2);
          c.produce("//q", tablet, next[tablet], next[tablet] + 1);
          input.add(next[tablet]++);
        }
        String fault = faults.get(run % faults.size());
        int before = c.cluster.faults().fired().size();
        List<ChaosConnector.Point> points = new ArrayList<>();
        String point = inject(c, how, fault, random, points);
        String outcome = "ok";
        try {
          runOnce.run();
        } catch (Exception e) {
          outcome = "failed: " + rootMessage(e);
          failures++;
        } finally {
          c.cluster.faults().clearPending();
          ChaosConnector.disarm(c.name);
        }
        boolean fired =
            c.cluster.faults().fired().size() > before
                || points.stream().anyMatch(ChaosConnector.Point::fired);
        if (fired) {
          firedRuns.merge(fault, 1, Integer::sum);
          if (fault.endsWith("task-retried") && outcome.equals("ok")) {
            retriedAndCommitted++;
          }
        }
        log.add(
            "run "
                + run
                + " "
                + fault
                + point
                + (fired ? " fired" : " not reached")
                + " -> "
                + outcome);
        history = "seed " + seed + " (" + how + ")\n" + String.join("\n", log);
        if (!outcome.equals("ok") && fault.equals("none")) {
          throw new AssertionError("a run with no fault failed; " + history);
        }
      }
      // Drain without faults.
      runOnce.run();
      runOnce.run();
    } catch (Exception | AssertionError e) {
      System.err.println("ProducerChaosTest failed; " + history);
      throw e;
    } finally {
      ChaosConnector.disarm(c.name);
      spark.conf().unset(YtSettings.PROXY);
      spark.conf().unset(YtSettings.DYN_BATCH_SIZE);
    }
    List<Long> output = c.ids(OUT);
    TreeMap<Long, Integer> copies = new TreeMap<>();
    for (long id : output) {
      copies.merge(id, 1, Integer::sum);
    }
    long duplicates = copies.values().stream().mapToLong(n -> n - 1).sum();
    TreeSet<Long> lost = new TreeSet<>(input);
    lost.removeAll(copies.keySet());
    System.err.println(
        "producer chaos "
            + how
            + " seed "
            + seed
            + ": "
            + input.size()
            + " source rows, "
            + output.size()
            + " output rows, "
            + duplicates
            + " duplicates, "
            + lost.size()
            + " lost; "
            + failures
            + " of "
            + RUNS
            + " runs failed; faults fired in "
            + firedRuns
            + "; "
            + pushes);
    assertEquals(0, duplicates, "duplicates in the output queue; " + history);
    assertEquals(0, lost.size(), "source rows lost: " + lost + "; " + history);
    input.sort(Long::compare);
    assertEquals(input, output, "every source row exactly once; " + history);
    assertEquals(
        input.size(), c.consumerTotal("//c", "//q"), "the consumer reached the end; " + history);
    for (String fault : faults) {
      if (!fault.equals("none")) {
        assertTrue(firedRuns.containsKey(fault), fault + " never fired; " + history);
      }
    }
    // A task attempt that failed on its pushes was retried by Spark and its batch committed.
    assertTrue(retriedAndCommitted > 0, "a failed task attempt was retried; " + history);
    // Replays pushed rows the queue had (a retried attempt, a replayed batch): skipped.
    assertTrue(pushes.skippedRows.get() > 0, "no pushed row was ever replayed; " + history);
    assertTrue(failures >= 2, "faults broke runs (" + failures + "); " + history);
  }

  private interface Runner {
    void run() throws Exception;
  }

  private void runOnce(Writer how, YtProducerForeachWriter writer, String ckpt) throws Exception {
    DataStreamWriter<org.apache.spark.sql.Row> w =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .option("max_rows_per_partition", "2")
            .option("include_service_columns", Boolean.toString(how == Writer.FOREACH))
            .load("//q")
            .writeStream();
    w =
        how == Writer.FOREACH
            ? w.foreach(writer)
            : w.format("yt").option("path", OUT).option("producer_path", PRODUCER);
    StreamingQuery q = w.option("checkpointLocation", ckpt).trigger(Trigger.AvailableNow()).start();
    try {
      q.awaitTermination();
    } finally {
      q.stop();
    }
  }

  /** Schedules {@code fault} at a call drawn from {@code random}; returns where, for the log. */
  private static String inject(
      TestCluster c, Writer how, String fault, Random random, List<ChaosConnector.Point> points) {
    FaultInjector f = c.cluster.faults();
    // The foreach writer pushes in transactions of their own, the sink into its share's.
    ClusterOperation push =
        how == Writer.FOREACH ? ClusterOperation.PRODUCER_PUSH : ClusterOperation.TX_PRODUCER_PUSH;
    // Which matching call breaks (0 = the first).
    int skip = random.nextInt(3);
    switch (fault) {
      case "none" -> {
        return "";
      }
      case "pull-fails" -> {
        // load() proves the consumer is registered with one pull; skip it so a task's pull fails.
        f.skipNext(ClusterOperation.PULL, 1 + skip);
        f.failNext(ClusterOperation.PULL, 1, YtErrorCode.GENERIC, "injected: tablet node down");
        return " at PULL #" + (2 + skip);
      }
      case "push-task-retried" -> {
        // As many failures in a row as the writer tries a push: the task attempt fails.
        f.skipNext(push, skip);
        f.failNext(push, 3, YtErrorCode.GENERIC, "injected: proxy down");
      }
      case "push-applied-task-retried" -> {
        f.skipNext(push, skip);
        f.failNextAfterApplying(push, 3, YtErrorCode.GENERIC, "injected: proxy died");
      }
      case "push-lost-before-apply" ->
          points.add(
              ChaosConnector.arm(c.name, ChaosConnector.losePush(ChaosConnector.PUSH, OUT, skip)));
      case "push-lost-after-apply" ->
          points.add(
              ChaosConnector.arm(
                  c.name, ChaosConnector.losePush(ChaosConnector.PUSHED, OUT, skip)));
      case "session-answer-lost" -> {
        f.skipNext(ClusterOperation.PRODUCER_SESSION, skip);
        f.unknownOutcomeAfterApplying(ClusterOperation.PRODUCER_SESSION, 1);
        return " at PRODUCER_SESSION #" + (1 + skip);
      }
      case "advance-unknown-applied" -> {
        skip = random.nextInt(2);
        f.skipNext(ClusterOperation.ADVANCE, skip);
        f.unknownOutcomeAfterApplying(ClusterOperation.ADVANCE, 1);
        return " at ADVANCE #" + (1 + skip);
      }
      case "driver-stops" -> {
        skip = random.nextInt(2);
        points.add(
            ChaosConnector.arm(
                c.name,
                new ChaosConnector.Point(
                    "rename",
                    COMMIT_LOG,
                    () -> true,
                    skip,
                    path -> {
                      throw new YtException(
                          YtErrorCode.GENERIC,
                          "injected: the driver stopped before publishing " + path);
                    })));
        return " before commits/N #" + (1 + skip);
      }
      default -> throw new IllegalArgumentException(fault);
    }
    return " at push #" + (1 + skip);
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    String m = String.valueOf(t.getMessage());
    return m.length() > 160 ? m.substring(0, 160) + "..." : m;
  }
}
