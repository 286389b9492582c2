package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ytstream.application.ServiceColumns;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulatorExtension;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.config.YtSettings;
import io.ytstream.spark.writers.YtAppendForeachWriter;
import io.ytstream.spark.writers.YtExactlyOnceForeachWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.sql.ForeachWriter;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Real-time Mode over a queue of 16 tablets on 4 task slots ({@code local-cluster[1,4,1024]}: one
 * executor of 4 cores in its own JVM, reaching the emulator over HTTP) with {@code
 * real_time_partitions_per_task=4}: 4 tasks of 4 partitions each, every plan piece and every task's
 * offsets serialized between JVMs. The exactly-once writer ends with every row once across a
 * restart that resumes every partition; the append writer with every row.
 *
 * <p>Runs only in the {@code local-cluster} Surefire execution, like {@link
 * LocalClusterStreamingTest}; anywhere else it is skipped.
 */
class LocalClusterRealTimePartitionsPerTaskTest {

  private static final String TOKEN = "yt-local-cluster-rt-token-5c07";
  private static final int TABLETS = 16;
  private static final List<Column> KEYED_OUTPUT =
      List.of(
          new Column(ServiceColumns.TABLET_INDEX, "int64", true, true),
          new Column(ServiceColumns.ROW_INDEX, "int64", true, true),
          new Column("id", "int64", false, false),
          new Column("payload", "string", false, false));

  @RegisterExtension
  static final YtEmulatorExtension YT =
      new YtEmulatorExtension(EmulatorOptions.defaults().withToken(TOKEN));

  private static SparkSession spark;
  private static EmulatorCluster c;

  /** The task count of every stage submitted: a real-time batch is one stage of its tasks. */
  private static final Set<Integer> STAGE_TASKS = ConcurrentHashMap.newKeySet();

  @BeforeAll
  static void startCluster() throws Exception {
    assumeTrue(
        "1".equals(System.getProperty("spark.testing")),
        "runs in the local-cluster Surefire execution only (needs spark.testing=1)");
    Files.createDirectories(Path.of(System.getProperty("spark.test.home")));
    c = new EmulatorCluster(YT.emulator());
    spark =
        SparkSession.builder()
            .master("local-cluster[1,4,1024]")
            .appName("ytstream-local-cluster-rt-partitions-per-task")
            .config("spark.executor.memory", "768m")
            .config("spark.executor.cores", "4")
            .config("spark.executorEnv.SPARK_SCALA_VERSION", "2.13")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.sql.adaptive.enabled", "false")
            .config(RealTimeTests.MIN_BATCH, "1000")
            .config(YtSettings.PROXY, c.url())
            .config(YtSettings.TOKEN, TOKEN)
            .getOrCreate();
    // The executor JVM registers in its own time (long on a loaded machine); the query's slot
    // check waits for it only so long, and this test is about partitions per task, not that wait.
    Await.until(
        Duration.ofMinutes(3),
        () -> spark.sparkContext().statusTracker().getExecutorInfos().length > 1,
        () -> spark.sparkContext().statusTracker().getExecutorInfos().length - 1 + " executors");
    spark
        .sparkContext()
        .addSparkListener(
            new SparkListener() {
              @Override
              public void onStageSubmitted(SparkListenerStageSubmitted submitted) {
                STAGE_TASKS.add(submitted.stageInfo().numTasks());
              }
            });
  }

  @AfterAll
  static void stopCluster() {
    if (spark != null) {
      spark.stop();
    }
  }

  private static void queue(String root) {
    c.cluster.createMapNode(YPath.of(root));
    c.queue(root + "/q", TABLETS).consumer(root + "/c", root + "/q");
  }

  /** Rows {@code tablet * 1000 + from ..} into every tablet; adds them to {@code expected}. */
  private static void produce(String root, long from, long to, List<Long> expected) {
    for (int t = 0; t < TABLETS; t++) {
      c.produce(root + "/q", t, t * 1000L + from, t * 1000L + to);
      expected.addAll(TestCluster.range(t * 1000L + from, t * 1000L + to));
    }
    expected.sort(Long::compare);
  }

  private static StreamingQuery start(
      String root, ForeachWriter<Row> writer, boolean serviceColumns) throws Exception {
    return spark
        .readStream()
        .format("yt")
        .option("consumer_path", root + "/c")
        .option("include_service_columns", Boolean.toString(serviceColumns))
        .option("real_time_partitions_per_task", "4")
        .load(root + "/q")
        .writeStream()
        .foreach(writer)
        .outputMode("update")
        .option("checkpointLocation", "yt://" + root + "/ckpt")
        .trigger(Trigger.RealTime(RealTimeTests.BATCH))
        .start();
  }

  /** Waits for the rows; a query that failed meanwhile fails the test with its own error. */
  private static void awaitRows(StreamingQuery query, String table, int count) throws Exception {
    Await.until(
        Duration.ofSeconds(120),
        () -> {
          if (query.exception().isDefined()) {
            throw new AssertionError("the query failed", query.exception().get());
          }
          return c.rows(table).size() >= count;
        },
        () -> c.rows(table).size() + " rows of " + count);
  }

  private static void awaitConsumerAt(String root, long rowsPerTablet) throws Exception {
    QueueId q = new QueueId(c.cluster.name(), YPath.of(root + "/q"));
    Await.until(
        Duration.ofSeconds(60),
        () -> {
          var offsets = c.consumerOffsets(root + "/c", root + "/q");
          for (int t = 0; t < TABLETS; t++) {
            if (offsets.getOrDefault(new PartitionId(q, t), 0) != rowsPerTablet) {
              return false;
            }
          }
          return true;
        },
        () -> "consumer at " + c.consumerOffsets(root + "/c", root + "/q"));
  }

  @Test
  void exactlyOnceWriterOnFourSlotsWritesEveryRowOnceAndARestartResumesEveryPartition()
      throws Exception {
    long started = System.nanoTime();
    String root = "//lc-rt/eo";
    queue(root);
    c.sortedTable(root + "/out", KEYED_OUTPUT);
    List<Long> expected = new ArrayList<>();
    produce(root, 0, 5, expected);
    YtExactlyOnceForeachWriter writer =
        YtExactlyOnceForeachWriter.builder().path(root + "/out").build();
    StreamingQuery q = start(root, writer, true);
    try {
      awaitRows(q, root + "/out", expected.size());
      // A second batch at least: the first one's end, every partition's, becomes durable.
      awaitConsumerAt(root, 5);
      produce(root, 5, 7, expected);
      awaitRows(q, root + "/out", expected.size());
    } finally {
      q.stop();
    }
    assertTrue(STAGE_TASKS.contains(4), "a real-time batch of 4 tasks: " + STAGE_TASKS);
    assertTrue(
        STAGE_TASKS.stream().allMatch(n -> n <= 4), "never more tasks than slots: " + STAGE_TASKS);
    produce(root, 7, 9, expected);
    StreamingQuery again = start(root, writer, true);
    try {
      awaitRows(again, root + "/out", expected.size());
      awaitConsumerAt(root, 9);
    } finally {
      again.stop();
    }
    assertEquals(expected, c.ids(root + "/out"), "every row exactly once");
    for (io.ytstream.ports.Row r : c.rows(root + "/out")) {
      long tablet = (Long) r.get(ServiceColumns.TABLET_INDEX);
      long row = (Long) r.get(ServiceColumns.ROW_INDEX);
      assertEquals(tablet * 1000 + row, (Long) r.get("id"), "keyed by its source position");
    }
    System.err.printf(
        Locale.ROOT,
        "local-cluster real-time 16 partitions on 4 slots, exactly once: %.1f s%n",
        (System.nanoTime() - started) / 1e9);
  }

  @Test
  void appendWriterOnFourSlotsWritesEveryRow() throws Exception {
    String root = "//lc-rt/append";
    queue(root);
    c.orderedTable(root + "/out", 2);
    List<Long> expected = new ArrayList<>();
    produce(root, 0, 4, expected);
    StreamingQuery q =
        start(root, YtAppendForeachWriter.builder().path(root + "/out").build(), false);
    try {
      awaitRows(q, root + "/out", expected.size());
      produce(root, 4, 6, expected);
      awaitRows(q, root + "/out", expected.size());
      awaitConsumerAt(root, 6);
    } finally {
      q.stop();
    }
    // No failure and no restart: each row read once.
    assertEquals(expected, c.ids(root + "/out"));
  }
}
