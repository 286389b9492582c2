package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.ServiceColumns;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.emulator.YtEmulatorExtension;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.inmemory.FaultInjector;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.TransactionId;
import io.ytstream.spark.config.YtSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.TreeSet;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ChaosTest} over HTTP: Spark (local[2]) → adapter-ytsaurus → the YTsaurus emulator (two
 * proxies, a required token), checkpoints on {@code yt:///} through the same HTTP adapter. One
 * query per mode is restarted {@value #RESTARTS} times with faults injected through the emulator's
 * in-memory cluster at seeded points (task failures, a commit applied but reported unknown — the
 * emulator then drops the connection, so the client really sees a lost response —, a lost commit,
 * transaction expiry, a lost {@code commits/N}); output is compared with input. Fewer restarts than
 * the in-memory chaos test: each HTTP run costs about a second here.
 *
 * <p>The token must never show in what Spark shows the test: log events (Spark at INFO, ytstream at
 * DEBUG), every progress JSON, failure messages and stack traces, and {@code SET}.
 */
class HttpChaosTest {

  private static final int RESTARTS = 6;
  private static final String TOKEN = "yt-http-chaos-token-7f3a9c";

  @RegisterExtension
  final YtEmulatorExtension yt =
      new YtEmulatorExtension(EmulatorOptions.defaults().withToken(TOKEN));

  private final SparkSession spark = SharedSpark.get();

  enum Mode {
    AT_LEAST_ONCE,
    TRANSACTIONAL,
    IDEMPOTENT
  }

  @AfterEach
  void resetSession() {
    spark.conf().unset(YtSettings.TRANSACTIONAL);
    spark.conf().unset(YtSettings.TOKEN);
    spark.conf().unset(YtSettings.PROXY);
  }

  @Test
  void atLeastOnceLosesNothing(YtEmulator emulator) throws Exception {
    chaos(emulator, Mode.AT_LEAST_ONCE, 1101);
  }

  @Test
  void transactionalLosesNothingAndDuplicatesNothing(YtEmulator emulator) throws Exception {
    chaos(emulator, Mode.TRANSACTIONAL, 2202);
  }

  @Test
  void idempotentReceiverLosesNothingAndDuplicatesNothing(YtEmulator emulator) throws Exception {
    chaos(emulator, Mode.IDEMPOTENT, 3303);
  }

  private void chaos(YtEmulator emulator, Mode mode, long seed) throws Exception {
    long started = System.nanoTime();
    Random random = new Random(seed);
    EmulatorCluster c = new EmulatorCluster(emulator);
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
    spark.conf().set(YtSettings.PROXY, c.url());
    spark.conf().set(YtSettings.TOKEN, TOKEN);
    if (mode == Mode.TRANSACTIONAL) {
      spark.conf().set(YtSettings.TRANSACTIONAL, "true");
    }
    String ckpt = "yt:///ckpt/http-chaos";
    List<Long> input = new ArrayList<>();
    long[] next = {0, 1_000_000};
    List<String> log = new ArrayList<>();
    List<String> shown = new ArrayList<>();
    int failures = 0;
    // The fault kinds in a seeded order; with fewer restarts than kinds the seed picks which.
    List<String> schedule = faultsFor(mode);
    Collections.shuffle(schedule, random);
    try (LogCapture logs = new LogCapture(TOKEN)) {
      for (int run = 0; run < RESTARTS; run++) {
        int rows = 1 + random.nextInt(6);
        for (int i = 0; i < rows; i++) {
          int tablet = random.nextInt(2);
          c.produce("//q", tablet, next[tablet], next[tablet] + 1);
          input.add(next[tablet]++);
        }
        String fault = schedule.get(run % schedule.size());
        // Armed before the run: the fault hits the run's first matching call. (A wall-clock delay
        // made whether it fired depend on the machine's speed.)
        inject(c, fault);
        String outcome = "ok";
        long runStarted = System.nanoTime();
        try {
          runOnce(mode, ckpt, shown);
        } catch (Exception e) {
          outcome = "failed: " + rootMessage(e);
          shown.add(stackTrace(e));
          if (fault.equals("none")) {
            System.err.println(redact(stackTrace(e)));
          }
          failures++;
        } finally {
          c.cluster.faults().clearPending();
        }
        if (outcome.contains("code 900")) {
          throw new AssertionError("run " + run + " was refused the token: " + outcome);
        }
        if (!outcome.equals("ok") && fault.equals("none")) {
          throw new AssertionError("run " + run + " failed with no fault injected: " + outcome);
        }
        if (random.nextInt(4) == 0 && c.dropLastCommitIfLogged("//ckpt/http-chaos")) {
          outcome += ", then lost commits/N (driver stopped before logging the batch)";
        }
        log.add(
            String.format(
                Locale.ROOT,
                "run %d fault=%s -> %s (%.1f s)",
                run,
                fault,
                outcome,
                (System.nanoTime() - runStarted) / 1e9));
      }
      // Drain without faults.
      runOnce(mode, ckpt, shown);
      runOnce(mode, ckpt, shown);
      for (org.apache.spark.sql.Row setting : spark.sql("SET").collectAsList()) {
        shown.add(setting.mkString("="));
      }
      shown.add(spark.sql("SET " + YtSettings.TOKEN).first().mkString("="));
      assertTrue(logs.events() > 0, "the log capture saw Spark's log events");
      assertEquals(List.of(), logs.leaks(), "the token never appears in a log event");
    }
    String history = "seed " + seed + "\n" + String.join("\n", log);
    for (String text : shown) {
      assertFalse(text.contains(TOKEN), "the token never shows; it did in: " + redact(text));
    }
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
    if (mode == Mode.TRANSACTIONAL) {
      // A lost or expired batch commit cannot be absorbed by Spark's task retries: it must have
      // broken a run. (In the other modes write faults are retried away, which is fine.)
      assertTrue(failures >= 1, "faults broke runs (" + failures + "); " + history);
    }
    System.err.printf(
        Locale.ROOT,
        "http chaos %s: %d of %d runs failed, %d faults fired; output %d rows for %d input rows;"
            + " %.1f s%n%s%n",
        mode,
        failures,
        RESTARTS,
        fired,
        output.size(),
        input.size(),
        (System.nanoTime() - started) / 1e9,
        history);
  }

  private void runOnce(Mode mode, String ckpt, List<String> shown) throws Exception {
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
      for (StreamingQueryProgress p : q.recentProgress()) {
        shown.add(p.json());
      }
      shown.add(q.toString());
      q.exception().foreach(e -> shown.add(stackTrace(e)));
    }
  }

  private static List<String> faultsFor(Mode mode) {
    List<String> faults = new ArrayList<>(List.of("none", "task-fails", "advance-unknown-applied"));
    if (mode == Mode.TRANSACTIONAL) {
      faults.addAll(List.of("commit-unknown-applied", "commit-lost", "tx-expires"));
    } else {
      faults.addAll(List.of("write-unknown-applied", "write-fails-once"));
    }
    return faults;
  }

  private static void inject(EmulatorCluster c, String fault) {
    FaultInjector f = c.cluster.faults();
    ClusterOperation write =
        c.cluster.tableMetadata().describe(YPath.of("//out")).sorted()
            ? ClusterOperation.OUTPUT_UPSERT
            : ClusterOperation.OUTPUT_APPEND;
    switch (fault) {
      case "none" -> {}
      case "task-fails" -> {
        f.failNext(ClusterOperation.INSERT, 1, YtErrorCode.GENERIC, "injected: tablet node down");
        f.failNext(write, 3, YtErrorCode.GENERIC, "injected: tablet node down");
      }
      case "write-fails-once" ->
          f.failNext(write, 1, YtErrorCode.REQUEST_THROTTLED, "injected: throttled");
      case "write-unknown-applied" -> f.unknownOutcomeAfterApplying(write, 1);
      case "advance-unknown-applied" -> f.unknownOutcomeAfterApplying(ClusterOperation.ADVANCE, 1);
      case "commit-unknown-applied" -> f.unknownOutcomeAfterApplying(ClusterOperation.COMMIT, 1);
      case "commit-lost" -> f.unknownOutcomeWithoutApplying(ClusterOperation.COMMIT, 1);
      case "tx-expires" -> {
        for (TransactionId id : c.cluster.liveTransactions()) {
          f.expireTransaction(id);
        }
      }
      default -> throw new IllegalArgumentException(fault);
    }
  }

  private static String stackTrace(Throwable e) {
    StringWriter out = new StringWriter();
    e.printStackTrace(new PrintWriter(out));
    return out.toString();
  }

  private static String redact(String text) {
    String r = text.replace(TOKEN, "<TOKEN>");
    return r.length() > 20000 ? r.substring(0, 20000) + "..." : r;
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
