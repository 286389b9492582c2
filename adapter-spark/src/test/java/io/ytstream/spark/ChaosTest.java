package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.inmemory.FaultInjector;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.TransactionId;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Real Spark (local[2]): one query restarted from its checkpoint at least 20 times while faults are
 * injected through the in-memory cluster at seeded random points, new rows arriving between
 * restarts; then the output is compared with the input. No row is lost in any mode; none is
 * duplicated in the exactly-once modes.
 *
 * <p>Faults: a writer task fails; a commit is applied but its outcome is reported unknown (the
 * batch transaction, an output chunk, a consumer advance); a commit is lost; the batch transaction
 * expires while tasks run; the driver stops after the sink committed batch N but before {@code
 * commits/N} (simulated by deleting the newest {@code commits/N}).
 */
class ChaosTest {

  private static final int RESTARTS = 20;

  private final SparkSession spark = SharedSpark.get();

  enum Mode {
    AT_LEAST_ONCE,
    TRANSACTIONAL,
    IDEMPOTENT
  }

  @AfterEach
  void resetMode() {
    spark.conf().unset(YtSettings.TRANSACTIONAL);
  }

  @Test
  void atLeastOnceLosesNothing() throws Exception {
    chaos(Mode.AT_LEAST_ONCE, 1001);
  }

  @Test
  void transactionalLosesNothingAndDuplicatesNothing() throws Exception {
    chaos(Mode.TRANSACTIONAL, 2002);
  }

  @Test
  void idempotentReceiverLosesNothingAndDuplicatesNothing() throws Exception {
    chaos(Mode.IDEMPOTENT, 3003);
  }

  private void chaos(Mode mode, long seed) throws Exception {
    Random random = new Random(seed);
    TestCluster c =
        TestCluster.create(spark, "chaos-" + mode.name().toLowerCase(java.util.Locale.ROOT));
    c.queue("//q", 2).consumer("//c", "//q");
    if (mode == Mode.IDEMPOTENT) {
      c.sortedTable(
          "//out",
          List.of(
              new Column(YtSourceSpec.TABLET_INDEX_COLUMN, "int64", true, true),
              new Column(YtSourceSpec.ROW_INDEX_COLUMN, "int64", true, true),
              new Column("id", "int64", false, false),
              new Column("payload", "string", false, false)));
    } else {
      c.orderedTable("//out", 2);
    }
    if (mode == Mode.TRANSACTIONAL) {
      spark.conf().set(YtSettings.TRANSACTIONAL, "true");
    }
    String ckpt = "yt:///ckpt/chaos";
    List<Long> input = new ArrayList<>();
    long[] next = {0, 1_000_000};
    List<String> log = new ArrayList<>();
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    int failures = 0;
    // Every fault kind at least twice, in a seeded order.
    List<String> schedule = faultsFor(mode);
    java.util.Collections.shuffle(schedule, random);
    try {
      for (int run = 0; run < RESTARTS; run++) {
        int rows = 1 + random.nextInt(6);
        for (int i = 0; i < rows; i++) {
          int tablet = random.nextInt(2);
          c.produce("//q", tablet, next[tablet], next[tablet] + 1);
          input.add(next[tablet]++);
        }
        String fault = schedule.get(run % schedule.size());
        // The random point: before the run (the fault hits the first matching call), or a seeded
        // delay into it (a later batch, or a transaction that is open at that moment).
        int delay = random.nextBoolean() ? 0 : random.nextInt(150);
        if (delay == 0) {
          inject(c, fault);
        }
        ScheduledFuture<?> injection =
            timer.schedule(
                () -> {
                  if (delay > 0) {
                    inject(c, fault);
                  }
                },
                delay,
                TimeUnit.MILLISECONDS);
        String outcome = "ok";
        try {
          runOnce(mode, ckpt);
        } catch (Exception e) {
          outcome = "failed: " + rootMessage(e);
          failures++;
        } finally {
          injection.cancel(false);
          // Wait for an injection in flight, then drop what did not fire.
          timer.submit(() -> {}).get();
          c.cluster.faults().clearPending();
        }
        if (outcome.equals("ok") && fault.equals("none")) {
          // nothing to check: the run had no reason to fail
        } else if (!outcome.equals("ok") && fault.equals("none")) {
          throw new AssertionError("run " + run + " failed with no fault injected: " + outcome);
        }
        if (random.nextInt(4) == 0 && dropLastCommitIfLogged(c)) {
          outcome += ", then lost commits/N (driver stopped before logging the batch)";
        }
        log.add("run " + run + " fault=" + fault + " -> " + outcome);
      }
      // Drain without faults.
      runOnce(mode, ckpt);
      runOnce(mode, ckpt);
    } finally {
      timer.shutdownNow();
    }
    String history = "seed " + seed + "\n" + String.join("\n", log);
    List<Long> output = c.ids("//out");
    input.sort(Long::compare);
    assertTrue(new TreeSet<>(output).containsAll(input), "no row lost; " + history);
    if (mode != Mode.AT_LEAST_ONCE) {
      assertEquals(input, output, "every row exactly once; " + history);
    }
    assertEquals(
        input.size(), c.consumerTotal("//c", "//q"), "the consumer reached the end; " + history);
    assertTrue(c.cluster.liveTransactions().isEmpty(), "no transaction left open; " + history);
    int fired = c.cluster.faults().fired().size();
    assertTrue(fired >= RESTARTS / 2, "faults fired (" + fired + "); " + history);
    if (mode != Mode.AT_LEAST_ONCE) {
      // Task failures and lost or expired commits must have broken some runs.
      assertTrue(failures >= 2, "faults broke runs (" + failures + "); " + history);
    }
    System.err.println(
        "chaos "
            + mode
            + ": "
            + failures
            + " of "
            + RESTARTS
            + " runs failed, "
            + fired
            + " faults fired; output "
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
    List<String> faults = new ArrayList<>(List.of("none", "task-fails", "advance-unknown-applied"));
    if (mode == Mode.TRANSACTIONAL) {
      faults.addAll(
          List.of("commit-unknown-applied", "commit-lost", "tx-expires", "commit-expired"));
    } else {
      faults.addAll(List.of("write-unknown-applied", "write-fails-once"));
    }
    return faults;
  }

  private static void inject(TestCluster c, String fault) {
    FaultInjector f = c.cluster.faults();
    ClusterOperation write =
        c.cluster.tableMetadata().describe(YPath.of("//out")).sorted()
            ? ClusterOperation.OUTPUT_UPSERT
            : ClusterOperation.OUTPUT_APPEND;
    switch (fault) {
      case "none" -> {}
      case "task-fails" -> {
        // Enough failures for a writer to give up, whichever write path it uses.
        f.failNext(ClusterOperation.INSERT, 1, YtErrorCode.GENERIC, "injected: tablet node down");
        f.failNext(write, 3, YtErrorCode.GENERIC, "injected: tablet node down");
      }
      case "write-fails-once" ->
          f.failNext(write, 1, YtErrorCode.REQUEST_THROTTLED, "injected: throttled");
      case "write-unknown-applied" -> f.unknownOutcomeAfterApplying(write, 1);
      case "advance-unknown-applied" -> f.unknownOutcomeAfterApplying(ClusterOperation.ADVANCE, 1);
      case "commit-unknown-applied" -> f.unknownOutcomeAfterApplying(ClusterOperation.COMMIT, 1);
      case "commit-lost" -> f.unknownOutcomeWithoutApplying(ClusterOperation.COMMIT, 1);
      case "commit-expired" ->
          f.failNext(
              ClusterOperation.COMMIT, 1, YtErrorCode.NO_SUCH_TRANSACTION, "injected: expired");
      case "tx-expires" -> {
        for (TransactionId id : c.cluster.liveTransactions()) {
          f.expireTransaction(id);
        }
      }
      default -> throw new IllegalArgumentException(fault);
    }
  }

  private static boolean dropLastCommitIfLogged(TestCluster c) {
    YPath root = YPath.of("//ckpt/chaos");
    long offsets = newest(c, root.child("offsets"));
    long commits = newest(c, root.child("commits"));
    if (offsets < 0 || offsets != commits) {
      return false;
    }
    c.dropLastCommit("//ckpt/chaos");
    return true;
  }

  private static long newest(TestCluster c, YPath dir) {
    if (c.cluster.checkpoints().status(dir).isEmpty()) {
      return -1;
    }
    long max = -1;
    for (String name : c.cluster.checkpoints().list(dir)) {
      if (name.matches("[0-9]+")) {
        max = Math.max(max, Long.parseLong(name));
      }
    }
    return max;
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
