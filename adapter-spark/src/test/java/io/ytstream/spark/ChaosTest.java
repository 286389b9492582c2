package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.ServiceColumns;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.inmemory.FaultInjector;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.TransactionId;
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
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamWriter;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Real Spark ({@code local[2,4]}: failed task attempts are retried), in every delivery mode: one
 * query restarted from its checkpoint 20 times while faults are injected through the in-memory
 * cluster, new rows arriving between restarts; then the output is compared with the input. No row
 * is lost in any mode; none is duplicated in the exactly-once ones (all but at-least-once).
 *
 * <p>Faults, each at a call number drawn from the seed ({@link FaultInjector#skipNext}), in every
 * mode: a pull fails inside a task (Spark retries the attempt); a consumer advance applies and is
 * reported unknown; the driver stops right after the sink committed batch N and before Spark
 * published {@code commits/N} (the rename that publishes it fails, through {@link ChaosConnector}),
 * so the restart replays the batch. Per mode: a write fails inside a task, or applies and is
 * reported unknown; in the transactional mode an insert fails, a commit is applied but reported
 * unknown, lost, or refused as expired, and the batch transaction really expires while the driver
 * commits; through producer sessions a push fails on every attempt (the task attempt fails and
 * Spark runs it again), applies and then fails on every attempt (the retried attempt pushes rows
 * the queue already has), is lost on the way or its answer lost after it applied, and a session
 * creation applies with its answer lost. Output chunks and the foreach writer's pushes are one row,
 * so a task that fails half-way has already written part of its rows (the producer sink's share
 * transaction then leaves nothing).
 *
 * <p>Every assertion message starts with the seed; {@code -Dytstream.chaos.seed=N} reruns one.
 */
class ChaosTest {

  private static final int RESTARTS = 20;
  private static final Pattern OFFSET_LOG = Pattern.compile(".*/offsets/[0-9]+");
  private static final String OUT = "//out";
  private static final String PRODUCER = "//producer";

  private final SparkSession spark = SharedSpark.get();

  /** How the query writes its output, each with its default seed and the faults it meets. */
  enum Mode {
    AT_LEAST_ONCE(1001),
    TRANSACTIONAL(2002),
    IDEMPOTENT(3003),
    /** {@code foreach(YtProducerForeachWriter)}: a session per source partition, one-row pushes. */
    PRODUCER_FOREACH(4004),
    /**
     * The {@code yt} sink with {@code producer_path}: a share in one-row chunks, one transaction.
     */
    PRODUCER_SINK(5005);

    final long seed;

    Mode(long seed) {
      this.seed = seed;
    }

    boolean producer() {
      return this == PRODUCER_FOREACH || this == PRODUCER_SINK;
    }

    /** Whether the query reads the service columns (the writer keys its output by them). */
    boolean serviceColumns() {
      return this == IDEMPOTENT || this == PRODUCER_FOREACH;
    }

    /** Every fault kind this mode meets, in a fixed order the seed shuffles. */
    List<String> faults() {
      if (producer()) {
        return List.of(
            "none",
            "pull-fails",
            "push-task-retried",
            "push-applied-task-retried",
            "push-lost-before-apply",
            "push-lost-after-apply",
            "session-answer-lost",
            "advance-unknown-applied",
            "driver-stops",
            "driver-stops");
      }
      List<String> faults = new ArrayList<>(List.of("none", "pull-fails", "driver-stops"));
      if (this == TRANSACTIONAL) {
        faults.addAll(
            List.of(
                "insert-fails",
                "commit-unknown-applied",
                "commit-lost",
                "commit-expired",
                "tx-expires"));
      } else {
        faults.addAll(
            List.of(
                "write-task-fails",
                "write-fails-once",
                "write-unknown-applied",
                "advance-unknown-applied"));
      }
      return faults;
    }

    /** The fault that fails a task attempt which Spark then retries. */
    boolean retriesATask(String fault) {
      return producer() ? fault.endsWith("task-retried") : fault.equals("pull-fails");
    }
  }

  @AfterEach
  void resetSession() {
    spark.conf().unset(YtSettings.PROXY);
    spark.conf().unset(YtSettings.TRANSACTIONAL);
    spark.conf().unset(YtSettings.DYN_BATCH_SIZE);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void losesNothingAndDuplicatesNothingOutsideAtLeastOnce(Mode mode) throws Exception {
    long seed = Long.getLong("ytstream.chaos.seed", mode.seed);
    Random random = new Random(seed);
    TestCluster c = TestCluster.create(spark, "chaos-" + mode.name().toLowerCase(Locale.ROOT));
    spark.conf().set(YtSettings.PROXY, ChaosConnector.address(c.name));
    c.queue("//q", 2).consumer("//c", "//q");
    if (mode == Mode.IDEMPOTENT) {
      c.sortedTable(
          OUT,
          List.of(
              new Column(ServiceColumns.TABLET_INDEX, "int64", true, true),
              new Column(ServiceColumns.ROW_INDEX, "int64", true, true),
              new Column("id", "int64", false, false),
              new Column("payload", "string", false, false)));
    } else {
      c.orderedTable(OUT, 2);
    }
    if (mode.producer()) {
      c.cluster.createQueueProducer(YPath.of(PRODUCER));
    }
    if (mode == Mode.TRANSACTIONAL) {
      spark.conf().set(YtSettings.TRANSACTIONAL, "true");
    }
    // Chunks of one row: a share of two rows is two writes and a fault can hit between them.
    spark.conf().set(YtSettings.DYN_BATCH_SIZE, "1");
    String ckpt = "yt:///ckpt/chaos";
    ChaosConnector.PushCounts pushes = ChaosConnector.pushes(c.name);
    List<Long> input = new ArrayList<>();
    long[] next = {0, 1_000_000};
    List<String> log = new ArrayList<>();
    Map<String, Integer> firedRuns = new HashMap<>();
    int failures = 0;
    int retriedAndCommitted = 0;
    List<String> faults = new ArrayList<>(mode.faults());
    Collections.shuffle(faults, random);
    String history = "";
    try {
      for (int run = 0; run < RESTARTS; run++) {
        int rows = 1 + random.nextInt(6);
        for (int i = 0; i < rows; i++) {
          int tablet = random.nextInt(2);
          c.produce("//q", tablet, next[tablet], next[tablet] + 1);
          input.add(next[tablet]++);
        }
        String fault = faults.get(run % faults.size());
        int before = c.cluster.faults().fired().size();
        List<ChaosConnector.Point> points = new ArrayList<>();
        String point = inject(c, mode, fault, random, points);
        String outcome = "ok";
        try {
          runOnce(mode, ckpt);
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
          if (mode.retriesATask(fault) && outcome.equals("ok")) {
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
        history = "seed " + seed + " (" + mode + ")\n" + String.join("\n", log);
        if (!outcome.equals("ok") && fault.equals("none")) {
          throw new AssertionError("a run with no fault failed; " + history);
        }
      }
      // Drain without faults.
      runOnce(mode, ckpt);
      runOnce(mode, ckpt);
    } catch (Exception | AssertionError e) {
      System.err.println("ChaosTest failed; " + history);
      throw e;
    } finally {
      ChaosConnector.disarm(c.name);
    }
    List<Long> output = c.ids(OUT);
    OutputCopies copies = OutputCopies.of(output, input);
    long duplicates = copies.duplicates();
    TreeSet<Long> lost = copies.lost();
    System.err.println(
        "chaos "
            + mode
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
            + RESTARTS
            + " runs failed; faults fired in "
            + firedRuns
            + (mode.producer() ? "; " + pushes : ""));
    assertEquals(0, lost.size(), "no row lost: " + lost + "; " + history);
    input.sort(Long::compare);
    if (mode != Mode.AT_LEAST_ONCE) {
      assertEquals(0, duplicates, "no row duplicated; " + history);
      assertEquals(input, output, "every row exactly once; " + history);
      assertTrue(failures >= 2, "faults broke runs (" + failures + "); " + history);
    } else {
      // The driver stopped between the sink's commit and commits/N: the batch ran again.
      assertTrue(
          output.size() > input.size(),
          "at-least-once replays a batch whose commits/N was not published; " + history);
    }
    assertEquals(
        input.size(), c.consumerTotal("//c", "//q"), "the consumer reached the end; " + history);
    assertTrue(c.cluster.liveTransactions().isEmpty(), "no transaction left open; " + history);
    for (String fault : faults) {
      if (!fault.equals("none")) {
        assertTrue(firedRuns.containsKey(fault), fault + " never fired; " + history);
      }
    }
    // A task attempt that failed (on a pull, or on its pushes) was retried by Spark and its batch
    // still committed.
    assertTrue(retriedAndCommitted > 0, "a failed task attempt was retried; " + history);
    if (mode.producer()) {
      // Replays pushed rows the queue had (a retried attempt, a replayed batch): skipped.
      assertTrue(pushes.skippedRows.get() > 0, "no pushed row was ever replayed; " + history);
    }
  }

  private void runOnce(Mode mode, String ckpt) throws Exception {
    DataStreamWriter<org.apache.spark.sql.Row> w =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .option("max_rows_per_partition", "2")
            .option("include_service_columns", Boolean.toString(mode.serviceColumns()))
            .load("//q")
            .writeStream();
    if (mode == Mode.PRODUCER_FOREACH) {
      // One row a push, pushed at once: a fault can hit a task between two of its pushes.
      w =
          w.foreach(
              YtProducerForeachWriter.builder()
                  .path(OUT)
                  .producerPath(PRODUCER)
                  .maxBufferedRows(1)
                  .flushInterval(Duration.ZERO)
                  .build());
    } else {
      w = w.format("yt").option("path", OUT);
      if (mode == Mode.PRODUCER_SINK) {
        w = w.option("producer_path", PRODUCER);
      }
    }
    StreamingQuery q = w.option("checkpointLocation", ckpt).trigger(Trigger.AvailableNow()).start();
    try {
      q.awaitTermination();
    } finally {
      q.stop();
    }
  }

  /**
   * Schedules {@code fault} at a call number drawn from {@code random}; returns a description of
   * the point for the log.
   */
  private static String inject(
      TestCluster c, Mode mode, String fault, Random random, List<ChaosConnector.Point> points) {
    FaultInjector f = c.cluster.faults();
    // The foreach writer pushes in transactions of its own, the producer sink into its share's.
    ClusterOperation write =
        switch (mode) {
          case PRODUCER_FOREACH -> ClusterOperation.PRODUCER_PUSH;
          case PRODUCER_SINK -> ClusterOperation.TX_PRODUCER_PUSH;
          case IDEMPOTENT -> ClusterOperation.OUTPUT_UPSERT;
          default -> ClusterOperation.OUTPUT_APPEND;
        };
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
      case "write-task-fails", "push-task-retried" -> {
        // As many failures in a row as the writer tries: the task attempt fails.
        f.skipNext(write, skip);
        f.failNext(write, 3, YtErrorCode.GENERIC, "injected: tablet node down");
      }
      case "push-applied-task-retried" -> {
        f.skipNext(write, skip);
        f.failNextAfterApplying(write, 3, YtErrorCode.GENERIC, "injected: proxy died");
      }
      case "write-fails-once" -> {
        f.skipNext(write, skip);
        f.failNext(write, 1, YtErrorCode.REQUEST_THROTTLED, "injected: throttled");
      }
      case "write-unknown-applied" -> {
        f.skipNext(write, skip);
        f.unknownOutcomeAfterApplying(write, 1);
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
      case "insert-fails" -> {
        // A committing task has inserted part of its rows (one row per insert) when this fails.
        f.skipNext(ClusterOperation.INSERT, skip);
        f.failNext(ClusterOperation.INSERT, 1, YtErrorCode.GENERIC, "injected: tablet node down");
        return " at INSERT #" + (1 + skip);
      }
      case "commit-unknown-applied", "commit-lost", "commit-expired" -> {
        skip = random.nextInt(2);
        f.skipNext(ClusterOperation.COMMIT, skip);
        switch (fault) {
          case "commit-unknown-applied" ->
              f.unknownOutcomeAfterApplying(ClusterOperation.COMMIT, 1);
          case "commit-lost" -> f.unknownOutcomeWithoutApplying(ClusterOperation.COMMIT, 1);
          default ->
              f.failNext(
                  ClusterOperation.COMMIT, 1, YtErrorCode.NO_SUCH_TRANSACTION, "injected: expired");
        }
        return " at COMMIT #" + (1 + skip);
      }
      case "tx-expires" -> {
        // The driver reads offsets/N to commit batch N while its transaction is open: the lease
        // lapses right then, for real (every later use fails with 11000).
        skip = random.nextInt(2);
        points.add(
            ChaosConnector.arm(
                c.name,
                new ChaosConnector.Point(
                    "readFile",
                    OFFSET_LOG,
                    () -> !c.cluster.liveTransactions().isEmpty(),
                    skip,
                    path -> {
                      for (TransactionId id : c.cluster.liveTransactions()) {
                        f.expireTransaction(id);
                      }
                    })));
        return " at read #" + (1 + skip) + " of offsets/N with a transaction open";
      }
      case "driver-stops" -> {
        skip = random.nextInt(2);
        points.add(ChaosConnector.arm(c.name, ChaosConnector.stopBeforePublishingCommit(skip)));
        return " before commits/N #" + (1 + skip);
      }
      default -> throw new IllegalArgumentException(fault);
    }
    return " at " + write + " #" + (1 + skip);
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
