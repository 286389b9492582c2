package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
import java.util.TreeMap;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An executor JVM that dies right after a producer push was applied, before the writer heard back
 * ({@code local-cluster[1,2,1024]}, executors in separate JVMs over the emulator): the rows are in
 * the output queue and no one knows. Spark runs the lost task again on a new executor, which
 * creates the session again (fencing the dead attempt) and pushes the same source rows with the
 * same numbers; the server skips the ones that landed, so the batch commits with every source row
 * in the output queue exactly once, without a restart.
 *
 * <p>The writer reaches the cluster through {@link HaltingConnector#afterPush}: the first executor
 * to apply its second one-row push halts. Runs only in the {@code local-cluster} Surefire
 * execution, like {@link LocalClusterExecutorLossTest}.
 */
class LocalClusterProducerExecutorLossTest {

  private static final String TOKEN = "yt-producer-loss-token-51e9";

  @RegisterExtension
  static final YtEmulatorExtension YT =
      new YtEmulatorExtension(EmulatorOptions.defaults().withToken(TOKEN));

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
            .appName("ytstream-producer-executor-loss-test")
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

  @Test
  void anExecutorLostAfterAPushLandedDuplicatesNothing() throws Exception {
    long started = System.nanoTime();
    String root = "//producer-loss";
    String q = root + "/q";
    String consumer = root + "/c";
    String out = root + "/out";
    String producer = root + "/producer";
    String ckpt = "yt://" + root + "/ckpt";
    c.cluster.createMapNode(YPath.of(root));
    c.queue(q, 2).consumer(consumer, q).orderedTable(out, 2);
    c.cluster.createQueueProducer(YPath.of(producer));
    c.produce(q, 0, 0, 6);
    c.produce(q, 1, 100, 106);
    Path marker = testHome.resolve("producer-loss-" + System.nanoTime() + ".halted");
    YtProducerForeachWriter writer =
        YtProducerForeachWriter.builder()
            .proxy(HaltingConnector.afterPush(2, marker, c.url()))
            .path(out)
            .producerPath(producer)
            .maxBufferedRows(1)
            .flushInterval(Duration.ZERO)
            .build();
    StreamingQuery query =
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
            .start();
    try {
      query.awaitTermination();
    } finally {
      query.stop();
    }

    assertTrue(Files.exists(marker), "an executor halted after its second push landed");
    List<Long> output = c.ids(out);
    TreeMap<Long, Integer> copies = new TreeMap<>();
    output.forEach(id -> copies.merge(id, 1, Integer::sum));
    long duplicates = copies.values().stream().mapToLong(n -> n - 1).sum();
    List<Long> expected = new ArrayList<>(TestCluster.range(0, 6));
    expected.addAll(TestCluster.range(100, 106));
    assertEquals(0, duplicates, "duplicates in the output queue: " + output);
    assertEquals(expected, output, "every source row exactly once");
    System.err.printf(
        Locale.ROOT,
        "local-cluster producer executor loss: %.1f s%n",
        (System.nanoTime() - started) / 1e9);
  }
}
