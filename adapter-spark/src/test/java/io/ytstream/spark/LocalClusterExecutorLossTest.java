package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulatorExtension;
import io.ytstream.spark.config.YtSettings;
import io.ytstream.spark.writers.YtProducerForeachWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An executor JVM that dies part-way through writing a partition's rows ({@code
 * local-cluster[1,2,1024]}, executors in separate JVMs over the emulator), in each mode that writes
 * from executors:
 *
 * <ul>
 *   <li>transactional: it dies inserting into the batch transaction. The writer cannot abort
 *       anything from a dead JVM, and Spark clears the commit lock of the lost attempt and lets a
 *       retry insert the whole partition again into the same transaction: the batch must not
 *       commit. After a restart the output holds every row exactly once. The sink reaches the
 *       cluster through {@link HaltingConnector} (option {@code proxy}), which halts the first
 *       executor that completes its second one-row insert ({@code dynBatchSize = 1}).
 *   <li>producer: it dies right after a push was applied, before the writer heard back: the rows
 *       are in the output queue and no one knows. Spark runs the lost task again on a new executor,
 *       which creates the session again (fencing the dead attempt) and pushes the same source rows
 *       with the same numbers; the server skips the ones that landed, so the batch commits with
 *       every source row exactly once, without a restart. The foreach writer reaches the cluster
 *       through {@link HaltingConnector#afterPush}: the first executor to apply its second one-row
 *       push halts.
 * </ul>
 *
 * <p>Runs only in the {@code local-cluster} Surefire execution, like {@link
 * LocalClusterStreamingTest}.
 */
class LocalClusterExecutorLossTest {

  private static final String TOKEN = "yt-executor-loss-token-7c2d";

  @RegisterExtension
  static final YtEmulatorExtension YT =
      new YtEmulatorExtension(EmulatorOptions.defaults().withToken(TOKEN));

  /** How the query writes: the transactional sink, or the foreach producer writer. */
  enum Mode {
    TRANSACTIONAL,
    PRODUCER
  }

  private static SparkSession spark;
  private static EmulatorCluster c;
  private static Path testHome;

  @BeforeAll
  static void startCluster() throws Exception {
    assumeTrue(
        "1".equals(System.getProperty("spark.testing")),
        "runs in the local-cluster Surefire execution only (needs spark.testing=1)");
    testHome = Files.createDirectories(Path.of(System.getProperty("spark.test.home")));
    c = new EmulatorCluster(YT.emulator());
    spark =
        SparkSession.builder()
            .master("local-cluster[1,2,1024]")
            .appName("ytstream-executor-loss-test")
            .config("spark.executor.memory", "512m")
            .config("spark.executor.cores", "1")
            .config("spark.executorEnv.SPARK_SCALA_VERSION", "2.13")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.sql.adaptive.enabled", "false")
            .config(YtSettings.PROXY, c.url())
            .config(YtSettings.TOKEN, TOKEN)
            .getOrCreate();
  }

  @AfterAll
  static void stopCluster() {
    if (spark != null) {
      spark.stop();
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void anExecutorLostWhileWritingDuplicatesNothing(Mode mode) throws Exception {
    long started = System.nanoTime();
    String root = "//loss-" + mode.name().toLowerCase(Locale.ROOT);
    String q = root + "/q";
    String consumer = root + "/c";
    String out = root + "/out";
    String producer = root + "/producer";
    String ckpt = "yt://" + root + "/ckpt";
    c.cluster.createMapNode(YPath.of(root));
    c.queue(q, 2).consumer(consumer, q).orderedTable(out, mode == Mode.PRODUCER ? 2 : 1);
    c.produce(q, 0, 0, 6);
    c.produce(q, 1, 100, 106);
    Path marker = testHome.resolve("executor-loss-" + System.nanoTime() + ".halted");
    StreamingQueryException lost = null;
    if (mode == Mode.PRODUCER) {
      c.cluster.createQueueProducer(YPath.of(producer));
      // Lost tasks are run again by Spark within the same batch: it ends without a failure.
      producerQuery(q, consumer, out, producer, ckpt, marker);
      assertTrue(Files.exists(marker), "an executor halted after its second push landed");
    } else {
      String sinkProxy = HaltingConnector.address(2, marker, c.url());
      spark.conf().set(YtSettings.TRANSACTIONAL, "true");
      spark.conf().set(YtSettings.DYN_BATCH_SIZE, "1"); // one insert per row
      try {
        try {
          query(q, consumer, out, ckpt, sinkProxy);
        } catch (StreamingQueryException e) {
          lost = e;
        }
        assertTrue(Files.exists(marker), "an executor halted after inserting 2 of its 6 rows");
        // The restart replays the batch with a new transaction; no executor halts any more.
        query(q, consumer, out, ckpt, sinkProxy);
      } finally {
        spark.conf().unset(YtSettings.TRANSACTIONAL);
        spark.conf().unset(YtSettings.DYN_BATCH_SIZE);
      }
    }

    List<Long> output = c.ids(out);
    List<Long> expected = new ArrayList<>(TestCluster.range(0, 6));
    expected.addAll(TestCluster.range(100, 106));
    assertEquals(
        0, OutputCopies.of(output, expected).duplicates(), "duplicates in the output: " + output);
    assertEquals(expected, output, "every row exactly once");
    QueueId queue = new QueueId(c.cluster.name(), YPath.of(q));
    var offsets = c.consumerOffsets(consumer, q);
    assertEquals(6, offsets.getOrDefault(new PartitionId(queue, 0), 0), "partition 0 offset");
    assertEquals(6, offsets.getOrDefault(new PartitionId(queue, 1), 0), "partition 1 offset");
    if (mode == Mode.TRANSACTIONAL) {
      assertTrue(c.cluster.liveTransactions().isEmpty(), "no transaction left open");
      assertNotNull(lost, "the batch whose executor was lost failed instead of committing");
      assertTrue(
          String.valueOf(lost.getMessage()).contains("ExecutorLostFailure"),
          "the failure names the lost executor: " + lost.getMessage());
    }
    System.err.printf(
        Locale.ROOT,
        "local-cluster executor loss (%s): %.1f s%n",
        mode,
        (System.nanoTime() - started) / 1e9);
  }

  private static void query(String q, String consumer, String out, String ckpt, String sinkProxy)
      throws Exception {
    runToTheEnd(
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", consumer)
            .load(q)
            .writeStream()
            .format("yt")
            .option("path", out)
            .option("proxy", sinkProxy)
            .option("checkpointLocation", ckpt)
            .trigger(Trigger.AvailableNow())
            .start());
  }

  private static void producerQuery(
      String q, String consumer, String out, String producer, String ckpt, Path marker)
      throws Exception {
    YtProducerForeachWriter writer =
        YtProducerForeachWriter.builder()
            .proxy(HaltingConnector.afterPush(2, marker, c.url()))
            .path(out)
            .producerPath(producer)
            .maxBufferedRows(1)
            .flushInterval(Duration.ZERO)
            .build();
    runToTheEnd(
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", consumer)
            .option("include_service_columns", "true")
            .load(q)
            .writeStream()
            .foreach(writer)
            .option("checkpointLocation", ckpt)
            .trigger(Trigger.AvailableNow())
            .start());
  }

  private static void runToTheEnd(StreamingQuery query) throws Exception {
    try {
      query.awaitTermination();
    } finally {
      query.stop();
    }
  }
}
