package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.inmemory.FaultInjector;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.spark.config.YtSettings;
import io.ytstream.spark.writers.YtAppendForeachWriter;
import io.ytstream.spark.writers.YtExactlyOnceForeachWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import org.apache.spark.sql.ForeachWriter;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Real-time Mode under faults: one query restarted from its checkpoint run after run, rows arriving
 * before and during each run, one fault per run at a call number drawn from the seed, and every run
 * stopped in the middle of a real-time batch (its rows are written, its end is not logged, so the
 * next run reads them again). The exactly-once writer ends with every input row exactly once; the
 * at-least-once writer loses none.
 *
 * <p>Faults: a pull fails inside a task; writes fail until the task gives up; a write is applied
 * but reported unknown (the writer retries it); a consumer advance is applied but reported unknown;
 * the driver stops before publishing {@code commits/N}. {@code -Dytstream.chaos.seed=N} reruns one
 * seed.
 */
class RealTimeChaosTest {

  private static final Pattern COMMIT_LOG = Pattern.compile(".*/commits/[0-9]+");

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
  void exactlyOnceWriterEndsWithEveryRowOnce() throws Exception {
    chaos(true, Long.getLong("ytstream.chaos.seed", 7007));
  }

  @Test
  void atLeastOnceWriterLosesNothing() throws Exception {
    chaos(false, Long.getLong("ytstream.chaos.seed", 8008));
  }

  private void chaos(boolean exactlyOnce, long seed) throws Exception {
    Random random = new Random(seed);
    TestCluster c = TestCluster.create(spark, exactlyOnce ? "rt-chaos-eo" : "rt-chaos-alo");
    spark.conf().set(YtSettings.PROXY, ChaosConnector.address(c.name));
    c.queue("//q", 2).consumer("//c", "//q");
    if (exactlyOnce) {
      c.sortedTable("//out", RealTimeWritersTest.KEYED_OUTPUT);
    } else {
      c.orderedTable("//out", 2);
    }
    ForeachWriter<Row> writer =
        exactlyOnce
            ? YtExactlyOnceForeachWriter.builder().path("//out").maxBufferedRows(2).build()
            : YtAppendForeachWriter.builder().path("//out").maxBufferedRows(2).build();
    String ckpt = "yt:///ckpt/rt-chaos";
    List<Long> input = new ArrayList<>();
    long[] next = {0, 1_000_000};
    List<String> faults =
        new ArrayList<>(
            List.of(
                "none",
                "pull-fails",
                "write-task-fails",
                "write-unknown-applied",
                "advance-unknown-applied",
                "driver-stops",
                "none"));
    Collections.shuffle(faults, random);
    List<String> log = new ArrayList<>();
    List<String> fired = new ArrayList<>();
    try {
      for (int run = 0; run < faults.size(); run++) {
        produce(c, random, input, next);
        String fault = faults.get(run);
        int before = c.cluster.faults().fired().size();
        List<ChaosConnector.Point> points = new ArrayList<>();
        inject(c, fault, random, points, exactlyOnce);
        BooleanSupplier hitYet =
            () ->
                fault.equals("none")
                    || c.cluster.faults().fired().size() > before
                    || points.stream().anyMatch(ChaosConnector.Point::fired);
        String outcome = runOnce(c, writer, ckpt, random, input, next, exactlyOnce, hitYet);
        c.cluster.faults().clearPending();
        ChaosConnector.disarm(c.name);
        boolean hit =
            c.cluster.faults().fired().size() > before
                || points.stream().anyMatch(ChaosConnector.Point::fired);
        if (hit) {
          fired.add(fault);
        }
        log.add("run " + run + " " + fault + (hit ? " fired" : " not reached") + " -> " + outcome);
      }
      // Drain without faults until the consumer has passed every row.
      StreamingQuery q = RealTimeWritersTest.start(spark, writer, exactlyOnce, ckpt);
      try {
        Await.until(
            Duration.ofSeconds(90),
            () -> c.consumerTotal("//c", "//q") == input.size(),
            () -> "consumer at " + c.consumerOffsets("//c", "//q") + "; " + String.join("\n", log));
      } finally {
        q.stop();
      }
    } finally {
      ChaosConnector.disarm(c.name);
      spark.conf().unset(YtSettings.PROXY);
    }
    String history = "seed " + seed + "\n" + String.join("\n", log);
    List<Long> output = c.ids("//out");
    input.sort(Long::compare);
    assertTrue(new TreeSet<>(output).containsAll(input), "no row lost; " + history);
    if (exactlyOnce) {
      assertEquals(input, output, "every row exactly once; " + history);
    }
    for (String fault : faults) {
      if (!fault.equals("none")) {
        assertTrue(fired.contains(fault), fault + " never fired; " + history);
      }
    }
    System.err.println(
        "real-time chaos "
            + (exactlyOnce ? "exactly-once" : "at-least-once")
            + ": output "
            + output.size()
            + " rows for "
            + input.size()
            + " input rows; "
            + history);
  }

  /**
   * Appends rows through a tablet transaction, not {@code OutputTables.append}, so the faults armed
   * for the writers' appends hit the writers only.
   */
  private static void produce(TestCluster c, Random random, List<Long> input, long[] next) {
    int rows = 1 + random.nextInt(5);
    List<io.ytstream.ports.Row> batch = new ArrayList<>();
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      int tablet = random.nextInt(2);
      long id = next[tablet]++;
      batch.add(
          io.ytstream.ports.Row.of("$tablet_index", (long) tablet, "id", id, "payload", "p" + id));
      ids.add(id);
    }
    TabletTransaction tx = c.cluster.transactions().start(Duration.ofSeconds(30));
    tx.insertRows(YPath.of("//q"), batch);
    tx.commit();
    input.addAll(ids);
  }

  /**
   * Starts the query, adds rows while it runs, waits until they are all out (or the query died),
   * and stops it mid-batch.
   */
  private String runOnce(
      TestCluster c,
      ForeachWriter<Row> writer,
      String ckpt,
      Random random,
      List<Long> input,
      long[] next,
      boolean serviceColumns,
      BooleanSupplier faultFired)
      throws Exception {
    StreamingQuery q;
    try {
      q = RealTimeWritersTest.start(spark, writer, serviceColumns, ckpt);
    } catch (Exception e) {
      return "start failed: " + rootMessage(e);
    }
    try {
      Thread.sleep(random.nextInt(1500));
      produce(c, random, input, next);
      long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
      long lastProduce = System.nanoTime();
      while (q.isActive()
          && System.nanoTime() < deadline
          && !(faultFired.getAsBoolean() && new TreeSet<>(c.ids("//out")).containsAll(input))) {
        if (!faultFired.getAsBoolean()
            && System.nanoTime() - lastProduce > Duration.ofMillis(300).toNanos()) {
          // The fault waits for a call that only more rows bring (a write, an advance).
          produce(c, random, input, next);
          lastProduce = System.nanoTime();
        }
        Thread.sleep(20);
      }
      // Sometimes let a batch boundary pass before stopping.
      Thread.sleep(random.nextInt(1500));
    } finally {
      q.stop();
    }
    return q.exception().isDefined() ? "failed: " + rootMessage(q.exception().get()) : "ok";
  }

  private static void inject(
      TestCluster c,
      String fault,
      Random random,
      List<ChaosConnector.Point> points,
      boolean exactlyOnce) {
    FaultInjector f = c.cluster.faults();
    ClusterOperation write =
        exactlyOnce ? ClusterOperation.OUTPUT_UPSERT : ClusterOperation.OUTPUT_APPEND;
    int skip = random.nextInt(2);
    switch (fault) {
      case "none" -> {}
      case "pull-fails" -> {
        // load() proves the consumer is registered with one pull; skip it so a task's pull fails.
        f.skipNext(ClusterOperation.PULL, 1 + skip);
        f.failNext(ClusterOperation.PULL, 1, YtErrorCode.GENERIC, "injected: tablet node down");
      }
      case "write-task-fails" -> {
        f.skipNext(write, skip);
        f.failNext(write, 3, YtErrorCode.GENERIC, "injected: tablet node down");
      }
      case "write-unknown-applied" -> {
        f.skipNext(write, skip);
        f.unknownOutcomeAfterApplying(write, 1);
      }
      case "advance-unknown-applied" -> {
        f.skipNext(ClusterOperation.ADVANCE, skip);
        f.unknownOutcomeAfterApplying(ClusterOperation.ADVANCE, 1);
      }
      case "driver-stops" ->
          points.add(
              ChaosConnector.arm(
                  c.name,
                  new ChaosConnector.Point(
                      "rename",
                      COMMIT_LOG,
                      () -> true,
                      0,
                      path -> {
                        throw new YtException(
                            YtErrorCode.GENERIC,
                            "injected: the driver stopped before publishing " + path);
                      })));
      default -> throw new IllegalArgumentException(fault);
    }
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
