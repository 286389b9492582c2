package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.emulator.YtEmulatorExtension;
import io.ytstream.spark.config.YtSettings;
import io.ytstream.spark.writers.YtAppendForeachWriter;
import io.ytstream.spark.writers.YtExactlyOnceForeachWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamWriter;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code StreamingQuery.stop()} ends a query with no exception in every mode, wherever the stop
 * lands: queries over HTTP (Spark → adapter-ytsaurus → the emulator, checkpoints on {@code yt:///}
 * through the same client) read a queue that a producer keeps filling, and are stopped at seeded
 * random moments, most of them inside a request of the driver (offsets, a commit, a checkpoint
 * file) or of a task (a pull, an insert). Spark takes a failure after {@code stop()} for a clean
 * stop only when it is an interruption it recognizes ({@code
 * StreamExecution.isInterruptionException}: an {@code InterruptedException}, {@code
 * InterruptedIOException} or {@code ClosedByInterruptException}, possibly inside {@code
 * UncheckedIOException} or {@code ExecutionException}); anything else, such as a transport error
 * wrapping the interrupt, leaves the query failed.
 *
 * <p>Every mode restarts on one checkpoint: each run starts from where the stopped one left its
 * checkpoint, so a stop that damages the checkpoint fails the next start. After the stops a last
 * run reads everything produced, and the output must hold every row exactly once (transactional,
 * idempotent, the exactly-once writer) or at least once (at-least-once, the append writer).
 */
class CleanStopTest {

  private static final int STOPS = 6;

  /** Real-time runs stop after one batch, so they are cheap enough to restart more often. */
  private static final int REAL_TIME_STOPS =
      Integer.getInteger("ytstream.cleanStop.realTimeRuns", 12);

  @RegisterExtension
  final YtEmulatorExtension yt = new YtEmulatorExtension(EmulatorOptions.defaults());

  private final SparkSession spark = SharedSpark.get();

  enum Mode {
    AT_LEAST_ONCE,
    TRANSACTIONAL,
    IDEMPOTENT,
    REAL_TIME_APPEND,
    REAL_TIME_EXACTLY_ONCE
  }

  @AfterEach
  void resetSession() {
    spark.conf().unset(YtSettings.TRANSACTIONAL);
    spark.conf().unset(YtSettings.PROXY);
    RealTimeTests.reset(spark);
  }

  @Test
  void atLeastOnceStopsCleanly(YtEmulator emulator) throws Exception {
    stopRepeatedly(emulator, Mode.AT_LEAST_ONCE, 11);
  }

  @Test
  void transactionalStopsCleanly(YtEmulator emulator) throws Exception {
    stopRepeatedly(emulator, Mode.TRANSACTIONAL, 22);
  }

  @Test
  void idempotentStopsCleanly(YtEmulator emulator) throws Exception {
    stopRepeatedly(emulator, Mode.IDEMPOTENT, 33);
  }

  @Test
  void realTimeAppendWriterStopsCleanly(YtEmulator emulator) throws Exception {
    stopRepeatedly(emulator, Mode.REAL_TIME_APPEND, 44);
  }

  @Test
  void realTimeExactlyOnceWriterStopsCleanly(YtEmulator emulator) throws Exception {
    stopRepeatedly(emulator, Mode.REAL_TIME_EXACTLY_ONCE, 55);
  }

  private void stopRepeatedly(YtEmulator emulator, Mode mode, long seed) throws Exception {
    long started = System.nanoTime();
    Random random = new Random(seed);
    EmulatorCluster c = new EmulatorCluster(emulator);
    c.queue("//q", 2).consumer("//c", "//q");
    boolean keyed = mode == Mode.IDEMPOTENT || mode == Mode.REAL_TIME_EXACTLY_ONCE;
    if (keyed) {
      c.sortedTable("//out", RealTimeWritersTest.KEYED_OUTPUT);
    } else {
      c.orderedTable("//out", 2);
    }
    spark.conf().set(YtSettings.PROXY, c.url());
    if (mode == Mode.TRANSACTIONAL) {
      spark.conf().set(YtSettings.TRANSACTIONAL, "true");
    }
    boolean realTime = mode == Mode.REAL_TIME_APPEND || mode == Mode.REAL_TIME_EXACTLY_ONCE;
    String ckpt = "//ckpt/stop-" + mode;
    int stops = realTime ? REAL_TIME_STOPS : STOPS;
    if (realTime) {
      RealTimeTests.shortBatches(spark);
    }
    List<String> failures = new ArrayList<>();
    List<String> history = new ArrayList<>();
    AtomicBoolean producing = new AtomicBoolean(true);
    long[] next = {0, 1_000_000};
    Thread producer =
        new Thread(
            () -> {
              while (producing.get()) {
                // About 2,000 rows a second per tablet: requests are always under way, and the
                // last run reads what the stopped runs left within a few seconds.
                for (int tablet = 0; tablet < 2; tablet++) {
                  c.produce("//q", tablet, next[tablet], next[tablet] + 20);
                  next[tablet] += 20;
                }
                try {
                  Thread.sleep(10);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "clean-stop-producer");
    producer.setDaemon(true);
    producer.start();
    try {
      for (int run = 0; run < stops; run++) {
        StreamingQuery q = start(mode, "yt:/" + ckpt);
        int before = c.rows("//out").size();
        // Stopped once the run writes (its requests are under way), after a seeded pause. A
        // real-time batch makes its driver requests at its end (the checkpoint's offsets/N and
        // commits/N, the next batch's plan): that run is stopped just after offsets/N appears.
        Await.until(
            Duration.ofSeconds(60),
            () -> c.rows("//out").size() > before || !q.isActive(),
            () -> "no rows written; " + q.status());
        if (realTime) {
          long logged = c.newest(ckpt + "/offsets");
          Await.until(
              Duration.ofSeconds(60),
              () -> c.newest(ckpt + "/offsets") > logged || !q.isActive(),
              () -> "no batch ended; " + q.status());
        }
        long pause = random.nextInt(realTime ? 40 : 400);
        Thread.sleep(pause);
        q.stop();
        String outcome = q.exception().isEmpty() ? "clean" : rootCause(q.exception().get());
        history.add(String.format(Locale.ROOT, "stop %d after %d ms: %s", run, pause, outcome));
        if (q.exception().isDefined()) {
          failures.add(stackTrace(q.exception().get()) + "\ncheckpoint: " + listing(c, ckpt));
        }
      }
    } finally {
      producing.set(false);
      producer.join();
    }
    List<Long> produced = new ArrayList<>();
    for (long id = 0; id < next[0]; id++) {
      produced.add(id);
    }
    for (long id = 1_000_000; id < next[1]; id++) {
      produced.add(id);
    }
    String delivery = failures.isEmpty() ? deliveredOnce(c, mode, ckpt, produced) : "not checked";
    System.err.printf(
        Locale.ROOT,
        "clean stop %s: %d of %d stops failed, %.1f s, delivery: %s%n%s%n",
        mode,
        failures.size(),
        stops,
        (System.nanoTime() - started) / 1e9,
        delivery,
        String.join("\n", history));
    assertEquals(
        List.of(),
        failures,
        mode + ": every stopped query ends with no exception; " + String.join("; ", history));
    assertEquals("ok", delivery, mode + ": what the runs delivered");
  }

  /**
   * Runs the query once more on the same checkpoint until every produced row is in the output, then
   * stops it and checks what the mode promises: "ok", or what is wrong.
   */
  private String deliveredOnce(EmulatorCluster c, Mode mode, String ckpt, List<Long> produced)
      throws Exception {
    Set<Long> expected = new TreeSet<>(produced);
    StreamingQuery q = start(mode, "yt:/" + ckpt);
    try {
      Await.until(
          Duration.ofSeconds(120),
          () ->
              (c.rows("//out").size() >= expected.size()
                      && new TreeSet<>(c.ids("//out")).containsAll(expected))
                  || !q.isActive(),
          () -> "the last run did not read every produced row; " + q.status());
    } finally {
      q.stop();
    }
    if (q.exception().isDefined()) {
      return "the last run failed: " + stackTrace(q.exception().get()) + listing(c, ckpt);
    }
    List<Long> ids = c.ids("//out");
    Set<Long> distinct = new TreeSet<>(ids);
    if (!distinct.containsAll(expected)) {
      Set<Long> lost = new TreeSet<>(expected);
      lost.removeAll(distinct);
      return lost.size() + " rows lost, first " + lost.iterator().next();
    }
    if (!expected.containsAll(distinct)) {
      return "rows that were never produced";
    }
    boolean exactlyOnce = mode != Mode.AT_LEAST_ONCE && mode != Mode.REAL_TIME_APPEND;
    if (exactlyOnce && ids.size() != distinct.size()) {
      return (ids.size() - distinct.size()) + " duplicate rows of " + ids.size();
    }
    return "ok";
  }

  private StreamingQuery start(Mode mode, String ckpt) throws Exception {
    boolean serviceColumns = mode == Mode.IDEMPOTENT || mode == Mode.REAL_TIME_EXACTLY_ONCE;
    Dataset<Row> in =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .option("max_rows_per_partition", "500")
            .option("include_service_columns", Boolean.toString(serviceColumns))
            .load("//q");
    DataStreamWriter<Row> out =
        switch (mode) {
          case AT_LEAST_ONCE, TRANSACTIONAL, IDEMPOTENT ->
              in.writeStream()
                  .format("yt")
                  .option("path", "//out")
                  .trigger(Trigger.ProcessingTime(0));
          case REAL_TIME_APPEND ->
              in.writeStream()
                  .foreach(YtAppendForeachWriter.builder().path("//out").build())
                  .outputMode("update")
                  .trigger(Trigger.RealTime(RealTimeTests.BATCH));
          case REAL_TIME_EXACTLY_ONCE ->
              in.writeStream()
                  .foreach(YtExactlyOnceForeachWriter.builder().path("//out").build())
                  .outputMode("update")
                  .trigger(Trigger.RealTime(RealTimeTests.BATCH));
        };
    return out.option("checkpointLocation", ckpt).start();
  }

  private static String listing(EmulatorCluster c, String ckptDir) {
    StringBuilder out = new StringBuilder();
    for (String dir : List.of("offsets", "commits")) {
      YPath path = YPath.of(ckptDir + "/" + dir);
      out.append(dir)
          .append("=")
          .append(
              c.cluster.checkpoints().status(path).isEmpty()
                  ? "none"
                  : c.cluster.checkpoints().list(path))
          .append(" ");
    }
    return out.toString();
  }

  private static String rootCause(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    String m = t.getClass().getSimpleName() + ": " + t.getMessage();
    return m.length() > 200 ? m.substring(0, 200) + "..." : m;
  }

  private static String stackTrace(Throwable e) {
    StringWriter out = new StringWriter();
    e.printStackTrace(new PrintWriter(out));
    String s = out.toString();
    return s.length() > 6000 ? s.substring(0, 6000) + "..." : s;
  }
}
