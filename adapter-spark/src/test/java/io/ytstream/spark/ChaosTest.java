package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.ServiceColumns;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.inmemory.FaultInjector;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.TransactionId;
import io.ytstream.spark.config.YtSettings;
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
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Real Spark ({@code local[2,4]}: failed task attempts are retried): one query restarted from its
 * checkpoint at least 20 times while faults are injected through the in-memory cluster, new rows
 * arriving between restarts; then the output is compared with the input. No row is lost in any
 * mode; none is duplicated in the exactly-once modes.
 *
 * <p>Faults, each at a call number drawn from the seed ({@link FaultInjector#skipNext}): a pull
 * fails inside a task (Spark retries the attempt); a write fails inside a task; a commit is applied
 * but reported unknown (the batch transaction, an output chunk, a consumer advance); a commit is
 * lost; the batch transaction really expires while the driver commits; the driver stops right after
 * the sink committed batch N and before Spark published {@code commits/N} (the rename that
 * publishes it fails, through {@link ChaosConnector}). Output chunks are one row, so a task that
 * fails half-way has already written part of its rows.
 *
 * <p>Every assertion message starts with the seed; {@code -Dytstream.chaos.seed=N} reruns one.
 */
class ChaosTest {

  private static final int RESTARTS = 20;
  private static final Pattern COMMIT_LOG = Pattern.compile(".*/commits/[0-9]+");
  private static final Pattern OFFSET_LOG = Pattern.compile(".*/offsets/[0-9]+");

  private final SparkSession spark = SharedSpark.get();

  enum Mode {
    AT_LEAST_ONCE,
    TRANSACTIONAL,
    IDEMPOTENT
  }

  @AfterEach
  void resetSession() {
    spark.conf().unset(YtSettings.TRANSACTIONAL);
    spark.conf().unset(YtSettings.DYN_BATCH_SIZE);
  }

  @Test
  void atLeastOnceLosesNothing() throws Exception {
    chaos(Mode.AT_LEAST_ONCE, Long.getLong("ytstream.chaos.seed", 1001));
  }

  @Test
  void transactionalLosesNothingAndDuplicatesNothing() throws Exception {
    chaos(Mode.TRANSACTIONAL, Long.getLong("ytstream.chaos.seed", 2002));
  }

  @Test
  void idempotentReceiverLosesNothingAndDuplicatesNothing() throws Exception {
    chaos(Mode.IDEMPOTENT, Long.getLong("ytstream.chaos.seed", 3003));
  }

  private void chaos(Mode mode, long seed) throws Exception {
    Random random = new Random(seed);
    TestCluster c = TestCluster.create(spark, "chaos-" + mode.name().toLowerCase(Locale.ROOT));
    spark.conf().set(YtSettings.PROXY, ChaosConnector.address(c.name));
    c.queue("//q", 2).consumer("//c", "//q");
    if (mode == Mode.IDEMPOTENT) {
      c.sortedTable(
          "//out",
          List.of(
              new Column(ServiceColumns.TABLET_INDEX, "int64", true, true),
              new Column(ServiceColumns.ROW_INDEX, "int64", true, true),
              new Column("id", "int64", false, false),
              new Column("payload", "string", false, false)));
    } else {
      c.orderedTable("//out", 2);
    }
    if (mode == Mode.TRANSACTIONAL) {
      spark.conf().set(YtSettings.TRANSACTIONAL, "true");
    }
    spark.conf().set(YtSettings.DYN_BATCH_SIZE, "1");
    String ckpt = "yt:///ckpt/chaos";
    List<Long> input = new ArrayList<>();
    long[] next = {0, 1_000_000};
    List<String> log = new ArrayList<>();
    Map<String, Integer> firedRuns = new HashMap<>();
    int failures = 0;
    int retriedAndCommitted = 0;
    // Every fault kind at least twice, in a seeded order.
    List<String> faults = faultsFor(mode);
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
        String point = inject(c, fault, random, points);
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
          if (fault.equals("pull-fails") && outcome.equals("ok")) {
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
    List<Long> output = c.ids("//out");
    input.sort(Long::compare);
    assertTrue(new TreeSet<>(output).containsAll(input), "no row lost; " + history);
    if (mode != Mode.AT_LEAST_ONCE) {
      assertEquals(input, output, "every row exactly once; " + history);
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
    // A task attempt that failed on a pull was retried by Spark and its batch still committed.
    assertTrue(retriedAndCommitted > 0, "a failed task attempt was retried; " + history);
    if (mode != Mode.AT_LEAST_ONCE) {
      assertTrue(failures >= 2, "faults broke runs (" + failures + "); " + history);
    }
    System.err.println(
        "chaos "
            + mode
            + " seed "
            + seed
            + ": "
            + failures
            + " of "
            + RESTARTS
            + " runs failed, faults fired in "
            + firedRuns
            + "; output "
            + output.size()
            + " rows for "
            + input.size()
            + " input rows");
  }

  private void runOnce(Mode mode, String ckpt) throws Exception {
    StreamingQuery q =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .option("max_rows_per_partition", "2")
            .option("include_service_columns", Boolean.toString(mode == Mode.IDEMPOTENT))
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

  private static List<String> faultsFor(Mode mode) {
    List<String> faults = new ArrayList<>(List.of("none", "pull-fails", "driver-stops"));
    if (mode == Mode.TRANSACTIONAL) {
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

  /**
   * Schedules {@code fault} at a call number drawn from {@code random}; returns a description of
   * the point for the log.
   */
  private static String inject(
      TestCluster c, String fault, Random random, List<ChaosConnector.Point> points) {
    FaultInjector f = c.cluster.faults();
    ClusterOperation write =
        c.cluster.tableMetadata().describe(YPath.of("//out")).sorted()
            ? ClusterOperation.OUTPUT_UPSERT
            : ClusterOperation.OUTPUT_APPEND;
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
      case "write-task-fails" -> {
        // Enough failures in a row for the writer to give up: the task attempt fails.
        f.skipNext(write, skip);
        f.failNext(write, 3, YtErrorCode.GENERIC, "injected: tablet node down");
      }
      case "write-fails-once" -> {
        f.skipNext(write, skip);
        f.failNext(write, 1, YtErrorCode.REQUEST_THROTTLED, "injected: throttled");
      }
      case "write-unknown-applied" -> {
        f.skipNext(write, skip);
        f.unknownOutcomeAfterApplying(write, 1);
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
