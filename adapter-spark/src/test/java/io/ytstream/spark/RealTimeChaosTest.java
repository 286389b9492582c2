package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.inmemory.FaultInjector;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.spark.config.YtSettings;
import io.ytstream.spark.writers.YtAppendForeachWriter;
import io.ytstream.spark.writers.YtExactlyOnceForeachWriter;
import io.ytstream.spark.writers.YtProducerForeachWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import org.apache.spark.sql.ForeachWriter;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Real-time Mode under faults, for each foreach writer: one query restarted from its checkpoint run
 * after run, rows arriving before and during each run, one fault per run at a call number drawn
 * from the seed, and every run stopped in the middle of a real-time batch (its rows are written,
 * its end is not logged, so the next run writes them again). The exactly-once writer and the
 * producer writer (queue to queue through producer sessions) end with every input row exactly once;
 * the at-least-once writer loses none.
 *
 * <p>Faults in every mode: a pull fails inside a task; a consumer advance is applied but reported
 * unknown; the driver stops before publishing {@code commits/N}. For the table writers: writes fail
 * until the task gives up; a write is applied but reported unknown (the writer retries it). For the
 * producer writer: a push lost on the way (nothing applied) or its answer lost after it applied
 * (the writer sends it again and the server skips it); a push that applies and then keeps failing,
 * so the task dies with its rows in the queue; a session creation applied with its answer lost; the
 * session taken over by a newer writer while the task runs (the task is fenced). {@code
 * -Dytstream.chaos.seed=N} reruns one seed.
 */
class RealTimeChaosTest {

  private static final String OUT = "//out";
  private static final String PRODUCER = "//producer";

  private final SparkSession spark = SharedSpark.get();

  /** Which foreach writer the query writes with, each with its default seed. */
  enum Mode {
    EXACTLY_ONCE(7007),
    AT_LEAST_ONCE(8008),
    PRODUCER(2323);

    final long seed;

    Mode(long seed) {
      this.seed = seed;
    }

    /** Every fault kind this mode meets, in a fixed order the seed shuffles. */
    List<String> faults() {
      if (this == PRODUCER) {
        return List.of(
            "none",
            "push-lost-before-apply",
            "push-lost-after-apply",
            "push-applied-task-dies",
            "session-answer-lost",
            "fenced-by-newer-writer",
            "pull-fails",
            "advance-unknown-applied",
            "driver-stops",
            "none");
      }
      return List.of(
          "none",
          "pull-fails",
          "write-task-fails",
          "write-unknown-applied",
          "advance-unknown-applied",
          "driver-stops",
          "none");
    }

    /** Two rows a write: a batch's rows of one partition take several, so a fault can hit one. */
    ForeachWriter<Row> writer() {
      return switch (this) {
        case EXACTLY_ONCE ->
            YtExactlyOnceForeachWriter.builder().path(OUT).maxBufferedRows(2).build();
        case AT_LEAST_ONCE -> YtAppendForeachWriter.builder().path(OUT).maxBufferedRows(2).build();
        case PRODUCER ->
            YtProducerForeachWriter.builder()
                .path(OUT)
                .producerPath(RealTimeChaosTest.PRODUCER)
                .maxBufferedRows(2)
                .build();
      };
    }

    /** Whether the query reads the service columns (the writer keys its output by them). */
    boolean serviceColumns() {
      return this != AT_LEAST_ONCE;
    }
  }

  @BeforeEach
  void shortBatches() {
    RealTimeTests.shortBatches(spark);
  }

  @AfterEach
  void reset() {
    RealTimeTests.reset(spark);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void restartedQueryLosesNothingAndDuplicatesNothingOutsideAtLeastOnce(Mode mode)
      throws Exception {
    long seed = Long.getLong("ytstream.chaos.seed", mode.seed);
    Random random = new Random(seed);
    TestCluster c = TestCluster.create(spark, "rt-chaos-" + mode.name().toLowerCase(Locale.ROOT));
    spark.conf().set(YtSettings.PROXY, ChaosConnector.address(c.name));
    c.queue("//q", 2).consumer("//c", "//q");
    if (mode == Mode.EXACTLY_ONCE) {
      c.sortedTable(OUT, RealTimeWritersTest.KEYED_OUTPUT);
    } else {
      c.orderedTable(OUT, 2);
    }
    if (mode == Mode.PRODUCER) {
      c.cluster.createQueueProducer(YPath.of(PRODUCER));
    }
    ForeachWriter<Row> writer = mode.writer();
    String ckpt = "yt:///ckpt/rt-chaos";
    List<Long> input = new ArrayList<>();
    long[] next = {0, 1_000_000};
    List<String> faults = new ArrayList<>(mode.faults());
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
        inject(c, mode, fault, random, points);
        BooleanSupplier hit =
            () ->
                c.cluster.faults().fired().size() > before
                    || points.stream().anyMatch(ChaosConnector.Point::fired)
                    || pushes.fenced.get() > fencedBefore;
        BooleanSupplier hitYet = () -> fault.equals("none") || hit.getAsBoolean();
        boolean fence = fault.equals("fenced-by-newer-writer");
        String outcome = runOnce(c, mode, writer, ckpt, random, input, next, hitYet, fence);
        c.cluster.faults().clearPending();
        ChaosConnector.disarm(c.name);
        boolean wasHit = hit.getAsBoolean();
        if (wasHit) {
          fired.add(fault);
        }
        log.add(
            "run " + run + " " + fault + (wasHit ? " fired" : " not reached") + " -> " + outcome);
      }
      // Drain without faults until the consumer has passed every row.
      StreamingQuery q = RealTimeWritersTest.start(spark, writer, mode.serviceColumns(), ckpt);
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
    String history = "seed " + seed + " (" + mode + ")\n" + String.join("\n", log);
    List<Long> output = c.ids(OUT);
    OutputCopies copies = OutputCopies.of(output, input);
    long duplicates = copies.duplicates();
    TreeSet<Long> lost = copies.lost();
    System.err.println(
        "real-time chaos "
            + mode
            + ": "
            + input.size()
            + " source rows, "
            + output.size()
            + " output rows, "
            + duplicates
            + " duplicates, "
            + lost.size()
            + " lost"
            + (mode == Mode.PRODUCER ? "; " + pushes : "")
            + "; "
            + history);
    assertEquals(0, lost.size(), "no row lost: " + lost + "; " + history);
    input.sort(Long::compare);
    if (mode != Mode.AT_LEAST_ONCE) {
      assertEquals(0, duplicates, "no row duplicated; " + history);
      assertEquals(input, output, "every row exactly once; " + history);
    }
    if (mode == Mode.PRODUCER) {
      // The runs did push rows the queue already had; the server skipped them.
      assertTrue(pushes.skippedRows.get() > 0, "no pushed row was ever replayed; " + history);
    }
    for (String fault : faults) {
      if (!fault.equals("none")) {
        assertTrue(fired.contains(fault), fault + " never fired; " + history);
      }
    }
  }

  /**
   * Appends rows through a tablet transaction, not a producer or {@code OutputTables.append}, so
   * the faults armed for the writers hit the writers only.
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
   * and stops it mid-batch. With {@code fence}, the producer's sessions are taken over before each
   * new row once rows flow.
   */
  private String runOnce(
      TestCluster c,
      Mode mode,
      ForeachWriter<Row> writer,
      String ckpt,
      Random random,
      List<Long> input,
      long[] next,
      BooleanSupplier faultFired,
      boolean fence)
      throws Exception {
    StreamingQuery q;
    try {
      q = RealTimeWritersTest.start(spark, writer, mode.serviceColumns(), ckpt);
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
          // The fault waits for a call that only more rows bring (a write, a push, an advance).
          if (fence && !c.rows(OUT).isEmpty()) {
            fenceSessions(c);
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
      TestCluster c, Mode mode, String fault, Random random, List<ChaosConnector.Point> points) {
    FaultInjector f = c.cluster.faults();
    ClusterOperation write =
        mode == Mode.EXACTLY_ONCE ? ClusterOperation.OUTPUT_UPSERT : ClusterOperation.OUTPUT_APPEND;
    int skip = random.nextInt(2);
    switch (fault) {
      case "none", "fenced-by-newer-writer" -> {}
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
      case "advance-unknown-applied" -> {
        f.skipNext(ClusterOperation.ADVANCE, skip);
        f.unknownOutcomeAfterApplying(ClusterOperation.ADVANCE, 1);
      }
      case "driver-stops" ->
          points.add(ChaosConnector.arm(c.name, ChaosConnector.stopBeforePublishingCommit(0)));
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
