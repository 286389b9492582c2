package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.inmemory.FaultInjector;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.spark.config.YtSettings;
import io.ytstream.spark.writers.YtProducerForeachWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link YtProducerForeachWriter} in Real-time Mode under faults: a queue-to-queue query restarted
 * from one checkpoint run after run, rows arriving before and during each run, one fault per run at
 * a call drawn from the seed, every run stopped in the middle of a real-time batch (its rows are
 * pushed, its end is not logged, so the next run pushes them again). The output queue ends with
 * every source row exactly once: no duplicate, none lost.
 *
 * <p>Faults: a push lost on the way (nothing applied) or its answer lost after it applied (the
 * writer sends it again and the server skips it); a push that applies and then keeps failing, so
 * the task dies with its rows in the queue; a session creation applied with its answer lost; the
 * session taken over by a newer writer while the task runs (the task is fenced); a failed pull; a
 * consumer advance applied and reported unknown; the driver stopping before it publishes {@code
 * commits/N}. {@code -Dytstream.chaos.seed=N} reruns one seed.
 */
class RealTimeProducerChaosTest {

  private static final Pattern COMMIT_LOG = Pattern.compile(".*/commits/[0-9]+");
  private static final String OUT = "//out";
  private static final String PRODUCER = "//producer";

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
  void restartedRealTimeQueryPushesEverySourceRowOnceUnderFaults() throws Exception {
    long seed = Long.getLong("ytstream.chaos.seed", 2323);
    Random random = new Random(seed);
    TestCluster c = TestCluster.create(spark, "rt-producer-chaos");
    spark.conf().set(YtSettings.PROXY, ChaosConnector.address(c.name));
    c.queue("//q", 2).consumer("//c", "//q").orderedTable(OUT, 2);
    c.cluster.createQueueProducer(YPath.of(PRODUCER));
    // Two rows a push: a batch's rows of one partition take several pushes, so a fault can hit
    // one in the middle of a task.
    YtProducerForeachWriter writer =
        YtProducerForeachWriter.builder()
            .path(OUT)
            .producerPath(PRODUCER)
            .maxBufferedRows(2)
            .build();
    String ckpt = "yt:///ckpt/rt-producer-chaos";
    List<Long> input = new ArrayList<>();
    long[] next = {0, 1_000_000};
    List<String> faults =
        new ArrayList<>(
            List.of(
                "none",
                "push-lost-before-apply",
                "push-lost-after-apply",
                "push-applied-task-dies",
                "session-answer-lost",
                "fenced-by-newer-writer",
                "pull-fails",
                "advance-unknown-applied",
                "driver-stops",
                "none"));
    Collections.shuffle(faults, random);
    List<String> log = new ArrayList<>();
    List<String> fired = new ArrayList<>();
    ChaosConnector.PushCounts pushes = ChaosConnector.pushes(c.name);
    try {
      for (int run = 0; run < faults.size(); run++) {
        produce(c, random, input, next);
        String fault = faults.get(run);
        int before = c.cluster.faults().fired().size();
        long fencedBefore = pushes.fenced.get();
        List<ChaosConnector.Point> points = new ArrayList<>();
        inject(c, fault, random, points);
        BooleanSupplier hitYet =
            () ->
                fault.equals("none")
                    || pushes.fenced.get() > fencedBefore
                    || c.cluster.faults().fired().size() > before
                    || points.stream().anyMatch(ChaosConnector.Point::fired);
        Runnable whileRunning =
            fault.equals("fenced-by-newer-writer") ? () -> fenceSessions(c) : () -> {};
        String outcome = runOnce(c, writer, ckpt, random, input, next, hitYet, whileRunning);
        c.cluster.faults().clearPending();
        ChaosConnector.disarm(c.name);
        boolean hit =
            c.cluster.faults().fired().size() > before
                || points.stream().anyMatch(ChaosConnector.Point::fired)
                || pushes.fenced.get() > fencedBefore;
        if (hit) {
          fired.add(fault);
        }
        log.add("run " + run + " " + fault + (hit ? " fired" : " not reached") + " -> " + outcome);
      }
      // Drain without faults until the consumer has passed every row.
      StreamingQuery q = RealTimeWritersTest.start(spark, writer, true, ckpt);
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
    List<Long> output = c.ids(OUT);
    TreeMap<Long, Integer> copies = new TreeMap<>();
    for (long id : output) {
      copies.merge(id, 1, Integer::sum);
    }
    long duplicates = copies.values().stream().mapToLong(n -> n - 1).sum();
    TreeSet<Long> lost = new TreeSet<>(input);
    lost.removeAll(copies.keySet());
    System.err.println(
        "real-time producer chaos: "
            + input.size()
            + " source rows, "
            + output.size()
            + " output rows, "
            + duplicates
            + " duplicates, "
            + lost.size()
            + " lost; "
            + pushes
            + "; "
            + history);
    assertEquals(0, duplicates, "duplicates in the output queue; " + history);
    assertEquals(0, lost.size(), "source rows lost: " + lost + "; " + history);
    input.sort(Long::compare);
    assertEquals(input, output, "every source row exactly once; " + history);
    // The runs did push rows the queue already had; the server skipped them.
    assertTrue(pushes.skippedRows.get() > 0, "no pushed row was ever replayed; " + history);
    for (String fault : faults) {
      if (!fault.equals("none")) {
        assertTrue(fired.contains(fault), fault + " never fired; " + history);
      }
    }
  }

  /**
   * Appends rows through a tablet transaction, not a producer or {@code OutputTables.append}, so
   * the faults armed for pushes hit the writer only.
   */
  private static void produce(TestCluster c, Random random, List<Long> input, long[] next) {
    int rows = 1 + random.nextInt(5);
    List<io.ytstream.ports.Row> batch = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      int tablet = random.nextInt(2);
      long id = next[tablet]++;
      batch.add(
          io.ytstream.ports.Row.of("$tablet_index", (long) tablet, "id", id, "payload", "p" + id));
      input.add(id);
    }
    TabletTransaction tx = c.cluster.transactions().start(Duration.ofSeconds(30));
    tx.insertRows(YPath.of("//q"), batch);
    tx.commit();
  }

  /**
   * Creates every session of the producer again, as a newer writer of the same sessions would: the
   * server bumps their epochs and the running task's next push is fenced.
   */
  private static void fenceSessions(TestCluster c) {
    for (io.ytstream.ports.Row s : c.rows(PRODUCER)) {
      c.cluster
          .queueProducers()
          .createSession(
              new ProducerSessionId(
                  YPath.of(PRODUCER), YPath.of(OUT), (String) s.get("session_id")));
    }
  }

  /**
   * Starts the query, adds rows while it runs, waits until they are all out (or the query died),
   * and stops it mid-batch. {@code whileRunning} runs before each new row once rows flow.
   */
  private String runOnce(
      TestCluster c,
      YtProducerForeachWriter writer,
      String ckpt,
      Random random,
      List<Long> input,
      long[] next,
      BooleanSupplier faultFired,
      Runnable whileRunning)
      throws Exception {
    StreamingQuery q;
    try {
      q = RealTimeWritersTest.start(spark, writer, true, ckpt);
    } catch (Exception e) {
      return "start failed: " + messages(e);
    }
    try {
      Thread.sleep(random.nextInt(1500));
      produce(c, random, input, next);
      long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
      long lastProduce = System.nanoTime();
      while (q.isActive()
          && System.nanoTime() < deadline
          && !(faultFired.getAsBoolean() && new TreeSet<>(c.ids(OUT)).containsAll(input))) {
        if (!faultFired.getAsBoolean()
            && System.nanoTime() - lastProduce > Duration.ofMillis(300).toNanos()) {
          // The fault waits for a call that only more rows bring (a push, an advance).
          if (!c.rows(OUT).isEmpty()) {
            whileRunning.run();
          }
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
    return q.exception().isDefined() ? "failed: " + messages(q.exception().get()) : "ok";
  }

  private static void inject(
      TestCluster c, String fault, Random random, List<ChaosConnector.Point> points) {
    FaultInjector f = c.cluster.faults();
    int skip = random.nextInt(2);
    switch (fault) {
      case "none", "fenced-by-newer-writer" -> {}
      case "push-lost-before-apply" ->
          points.add(
              ChaosConnector.arm(c.name, ChaosConnector.losePush(ChaosConnector.PUSH, OUT, skip)));
      case "push-lost-after-apply" ->
          points.add(
              ChaosConnector.arm(
                  c.name, ChaosConnector.losePush(ChaosConnector.PUSHED, OUT, skip)));
      case "push-applied-task-dies" -> {
        // Every attempt lands and fails after: the writer gives up with its rows in the queue.
        f.skipNext(ClusterOperation.PRODUCER_PUSH, skip);
        f.failNextAfterApplying(
            ClusterOperation.PRODUCER_PUSH, 3, YtErrorCode.GENERIC, "injected: proxy died");
      }
      case "session-answer-lost" -> {
        f.skipNext(ClusterOperation.PRODUCER_SESSION, skip);
        f.unknownOutcomeAfterApplying(ClusterOperation.PRODUCER_SESSION, 1);
      }
      case "pull-fails" -> {
        // load() proves the consumer is registered with one pull; skip it so a task's pull fails.
        f.skipNext(ClusterOperation.PULL, 1 + skip);
        f.failNext(ClusterOperation.PULL, 1, YtErrorCode.GENERIC, "injected: tablet node down");
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

  /** The class and message of every error in the chain, shortened. */
  private static String messages(Throwable e) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (b.length() > 0) {
        b.append(" <- ");
      }
      String m = String.valueOf(t.getMessage());
      b.append(t.getClass().getSimpleName())
          .append(": ")
          .append(m.length() > 120 ? m.substring(0, 120) + "..." : m);
    }
    return b.toString();
  }
}
