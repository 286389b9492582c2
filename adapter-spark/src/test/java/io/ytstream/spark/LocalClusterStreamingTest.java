package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One streaming query per mode with executors in separate JVMs ({@code local-cluster[1,2,1024]}:
 * one worker, two 1-core executors of 512 MB), which see the cluster only over HTTP (the emulator,
 * a required token) — nothing can rely on the driver's memory: no static registry, no in-memory
 * cluster, every plan piece serialized. Output and consumer offsets are checked, then the query is
 * restarted from its {@code yt:///} checkpoint with new rows.
 *
 * <p>Runs only in its own Surefire execution ({@code local-cluster} in this module's pom), which
 * sets {@code spark.testing=1} and {@code spark.test.home} (so executors get the test class path
 * without a Spark distribution) and {@code SPARK_LOCAL_IP=127.0.0.1}; anywhere else it is skipped.
 */
class LocalClusterStreamingTest {

  private static final String TOKEN = "yt-local-cluster-token-41be";

  @RegisterExtension
  static final YtEmulatorExtension YT =
      new YtEmulatorExtension(EmulatorOptions.defaults().withToken(TOKEN));

  private static SparkSession spark;
  private static EmulatorCluster c;

  @BeforeAll
  static void startCluster() throws Exception {
    assumeTrue(
        "1".equals(System.getProperty("spark.testing")),
        "runs in the local-cluster Surefire execution only (needs spark.testing=1)");
    Files.createDirectories(Path.of(System.getProperty("spark.test.home")));
    c = new EmulatorCluster(YT.emulator());
    long started = System.nanoTime();
    spark =
        SparkSession.builder()
            .master("local-cluster[1,2,1024]")
            .appName("ytstream-local-cluster-test")
            .config("spark.executor.memory", "512m")
            .config("spark.executor.cores", "1")
            .config("spark.executorEnv.SPARK_SCALA_VERSION", "2.13")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.adaptive.enabled", "false")
            .config(YtSettings.PROXY, c.url())
            .config(YtSettings.TOKEN, TOKEN)
            .getOrCreate();
    System.err.printf(
        Locale.ROOT,
        "local-cluster session started in %.1f s%n",
        (System.nanoTime() - started) / 1e9);
  }

  @AfterAll
  static void stopCluster() {
    if (spark != null) {
      spark.stop();
    }
  }

  @Test
  void executorsAreOtherProcesses() {
    long driver = ProcessHandle.current().pid();
    List<Long> pids =
        spark
            .range(0, 4, 1, 4)
            .mapPartitions(
                (MapPartitionsFunction<Long, Long>)
                    rows -> List.of(ProcessHandle.current().pid()).iterator(),
                Encoders.LONG())
            .collectAsList();
    assertFalse(pids.contains(driver), "tasks ran outside the driver's JVM: " + pids);
    // The worker runs in this JVM, so executors are its descendants: the token travels to them in
    // Spark's configuration over RPC, never on a command line another user could read.
    List<String> executors =
        ProcessHandle.current()
            .descendants()
            .filter(p -> pids.contains(p.pid()))
            .map(p -> p.info().commandLine().orElse(""))
            .toList();
    assertFalse(executors.isEmpty(), "executor processes found among this JVM's descendants");
    for (String commandLine : executors) {
      assertFalse(commandLine.contains(TOKEN), "an executor's command line shows the token");
    }
  }

  @Test
  void atLeastOnce() throws Exception {
    run("alo", false, false);
  }

  @Test
  void transactional() throws Exception {
    run("tx", true, false);
  }

  @Test
  void idempotentReceiver() throws Exception {
    run("idem", false, true);
  }

  private void run(String name, boolean transactional, boolean idempotent) throws Exception {
    long started = System.nanoTime();
    String root = "//lc/" + name;
    String q = root + "/q";
    String consumer = root + "/c";
    String out = root + "/out";
    String ckpt = "yt://" + root + "/ckpt";
    c.cluster.createMapNode(YPath.of(root));
    c.queue(q, 2).consumer(consumer, q);
    if (idempotent) {
      c.sortedTable(
          out,
          List.of(
              new Column(ServiceColumns.TABLET_INDEX, "int64", true, true),
              new Column(ServiceColumns.ROW_INDEX, "int64", true, true),
              new Column("id", "int64", false, false),
              new Column("payload", "string", false, false)));
    } else {
      c.orderedTable(out, 2);
    }
    c.produce(q, 0, 0, 10);
    c.produce(q, 1, 100, 106);
    spark.conf().set(YtSettings.TRANSACTIONAL, Boolean.toString(transactional));
    try {
      query(q, consumer, out, ckpt, idempotent);
      List<Long> expected = new ArrayList<>(TestCluster.range(0, 10));
      expected.addAll(TestCluster.range(100, 106));
      assertEquals(expected, c.ids(out), "every row once");
      assertOffsets(consumer, q, 10, 6);

      // A restart from the yt:/// checkpoint, with new rows; the exactly-once modes also replay
      // the last batch (its commits/N lost) without writing it twice.
      c.produce(q, 1, 106, 109);
      if (transactional || idempotent) {
        assertTrue(c.dropLastCommitIfLogged(root + "/ckpt"), "a logged batch to replay");
      }
      query(q, consumer, out, ckpt, idempotent);
      expected.addAll(TestCluster.range(106, 109));
      assertEquals(expected, c.ids(out), "every row once after the restart");
      assertOffsets(consumer, q, 10, 9);
      assertTrue(c.cluster.liveTransactions().isEmpty(), "no transaction left open");
      if (idempotent) {
        for (io.ytstream.ports.Row r : c.rows(out)) {
          long tablet = (Long) r.get(ServiceColumns.TABLET_INDEX);
          long row = (Long) r.get(ServiceColumns.ROW_INDEX);
          assertEquals(tablet == 0 ? row : 100 + row, (Long) r.get("id"), "source position");
        }
      }
    } finally {
      spark.conf().unset(YtSettings.TRANSACTIONAL);
    }
    System.err.printf(
        Locale.ROOT, "local-cluster %s: %.1f s%n", name, (System.nanoTime() - started) / 1e9);
  }

  private void assertOffsets(String consumer, String queue, long p0, long p1) {
    QueueId id = new QueueId(c.cluster.name(), YPath.of(queue));
    var offsets = c.consumerOffsets(consumer, queue);
    assertEquals(p0, offsets.getOrDefault(new PartitionId(id, 0), 0), "partition 0 offset");
    assertEquals(p1, offsets.getOrDefault(new PartitionId(id, 1), 0), "partition 1 offset");
  }

  private static void query(String q, String consumer, String out, String ckpt, boolean service)
      throws Exception {
    spark
        .readStream()
        .format("yt")
        .option("consumer_path", consumer)
        .option("max_rows_per_partition", "4")
        .option("include_service_columns", Boolean.toString(service))
        .load(q)
        .writeStream()
        .format("yt")
        .option("path", out)
        .option("checkpointLocation", ckpt)
        .trigger(Trigger.AvailableNow())
        .start()
        .awaitTermination();
  }
}
