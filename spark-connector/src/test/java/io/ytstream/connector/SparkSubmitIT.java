package io.ytstream.connector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.connector.job.QueueToTableJob;
import io.ytstream.connector.job.TransformWithStateJob;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.spark.sql.spytlike.SpytLikeYtSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The one jar as a user runs it: {@code spark-submit --jars spark-connector.jar} on a JVM that
 * holds a Spark distribution's jars and nothing else, a job that names {@code format("yt")}, and
 * the emulator (in this JVM, reached over HTTP with a token) as the cluster. The same jar, built
 * against Spark 4.2, runs on Spark 4.1's and on Spark 4.3's jars unchanged.
 */
class SparkSubmitIT {

  private static final String TOKEN = "spark-submit-token";
  private static final List<Column> COLUMNS =
      List.of(
          new Column("id", "int64", false, false), new Column("payload", "string", false, false));

  private static YtEmulator emulator;
  private static Path work;
  private static Path jobJar;

  @BeforeAll
  static void start() throws Exception {
    emulator = YtEmulator.start(EmulatorOptions.defaults().withToken(TOKEN));
    work = Path.of(System.getProperty("work.dir", "target/spark-submit"));
    Files.createDirectories(work);
    jobJar = JobJars.job(work);
  }

  @AfterAll
  static void stop() {
    if (emulator != null) {
      emulator.close();
    }
  }

  @Test
  void theJarRunsOnSparkCurrentJars() throws Exception {
    SparkDistribution spark = SparkDistribution.fromBuild("current");
    runQueueToTable(spark, "current", "yt", List.of());
  }

  @Test
  void theSameJarRunsOnSparkPreviousJars() throws Exception {
    SparkDistribution spark = SparkDistribution.fromBuild("previous");
    assertTrue(spark.version().startsWith("4.1."), spark.version());
    runQueueToTable(spark, "previous", "yt", List.of());
  }

  /** Spark 4.3's jars, those that PySpark 4.3 carries (Maven Central has no 4.3 tree). */
  @Test
  void theSameJarRunsOnSparkNextJars() throws Exception {
    SparkDistribution spark = SparkDistribution.fromBuild("next");
    assertTrue(spark.version().startsWith("4.3."), spark.version());
    runQueueToTable(spark, "next", "yt", List.of());
  }

  /**
   * A JVM {@code transformWithState} query in Real-time Mode on Spark 4.3's jars, fed by the {@code
   * yt} source and written by {@link io.ytstream.spark.writers.YtUpsertForeachWriter}: 40 rows
   * before it starts and 40 while it runs, over 5 keys; the table ends with each key's count over
   * all 80 rows, as a batch count of the queue's rows gives it.
   */
  @Test
  void transformWithStateRunsInRealTimeOnSparkNextJars() throws Exception {
    SparkDistribution spark = SparkDistribution.fromBuild("next");
    InMemoryCluster cluster = emulator.cluster();
    String root = "//home/transform-with-state";
    YPath queue = YPath.of(root + "/queue");
    YPath consumer = YPath.of(root + "/consumer");
    YPath output = YPath.of(root + "/counts");
    cluster.createOrderedTable(queue, COLUMNS, 2);
    cluster.createConsumer(consumer);
    cluster.registerConsumer(queue, consumer, true);
    cluster.createSortedTable(
        output,
        List.of(
            new Column("key", "string", true, true), new Column("count", "int64", false, false)));
    appendKeyed(cluster, queue, 0, 40);
    Path stopFile = work.resolve("transform-with-state.stop");
    Files.deleteIfExists(stopFile);

    // While the job runs: 40 more rows once its first batch is committed, then the stop file once
    // the table holds the counts of all 80 rows (or after 3 minutes, for the assertions below).
    Map<String, Long> expected = batchCounts(cluster.outputTables().readAll(queue));
    AtomicReference<Throwable> feeding = new AtomicReference<>();
    Thread feeder =
        new Thread(
            () -> {
              try {
                long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
                while (!cluster.exists(YPath.of(root + "/checkpoint/commits/0"))
                    && System.nanoTime() < deadline) {
                  Thread.sleep(200);
                }
                for (int from = 40; from < 80; from += 10) {
                  appendKeyed(cluster, queue, from, from + 10);
                  Thread.sleep(300);
                }
                Map<String, Long> all = batchCounts(cluster.outputTables().readAll(queue));
                expected.clear();
                expected.putAll(all);
                while (!counts(cluster, output).equals(all) && System.nanoTime() < deadline) {
                  Thread.sleep(200);
                }
                Files.writeString(stopFile, "stop");
              } catch (Throwable t) {
                feeding.set(t);
              }
            },
            "transform-with-state-feeder");
    feeder.setDaemon(true);
    feeder.start();
    SparkSubmitRun.Result result =
        SparkSubmitRun.submit(
            spark,
            Map.of(
                "spark.hadoop.yt.proxy",
                emulator.url(),
                "spark.hadoop.yt.token",
                TOKEN,
                "spark.ui.enabled",
                "false",
                "spark.local.dir",
                work.resolve("local").toString()),
            List.of(connectorJar()),
            TransformWithStateJob.class.getName(),
            JobJars.transformWithStateJob(work),
            List.of(
                queue.toString(),
                consumer.toString(),
                output.toString(),
                "yt://" + root.substring(1) + "/checkpoint",
                stopFile.toString()),
            work.resolve("transform-with-state.log"),
            Duration.ofMinutes(5));
    feeder.join(10_000);
    assertEquals(null, feeding.get(), "the feeder's thread");
    assertEquals(0, result.exitCode(), "spark-submit failed; its output: " + result.output());
    assertTrue(spark.version().startsWith("4.3."), spark.version());
    assertEquals(spark.version(), result.job("spark.version").orElseThrow());
    assertEquals("false", result.job("query stopped, exception").orElseThrow());
    assertEquals(80L, expected.values().stream().mapToLong(Long::longValue).sum());
    assertEquals(expected, counts(cluster, output), "each key's count over all rows read");
  }

  /** Rows {@code from..to-1} of the queue, alternating tablets, over 5 keys. */
  private static void appendKeyed(InMemoryCluster cluster, YPath queue, int from, int to) {
    List<Row> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      // uneven counts per key: k0 gets ids 0, 5, 10, ... and every seventh id once more
      String key = "k" + (id % 7 == 6 ? 0 : id % 5);
      rows.add(Row.of("$tablet_index", id % 2, "id", id, "payload", key));
    }
    cluster.outputTables().append(queue, rows);
  }

  /** The batch computation: rows per payload over the given rows. */
  private static Map<String, Long> batchCounts(List<Row> rows) {
    Map<String, Long> out = new TreeMap<>();
    for (Row row : rows) {
      out.merge((String) row.get("payload"), 1L, Long::sum);
    }
    return out;
  }

  private static Map<String, Long> counts(InMemoryCluster cluster, YPath table) {
    Map<String, Long> out = new TreeMap<>();
    for (Row row : cluster.outputTables().readAll(table)) {
      out.put((String) row.get("key"), (Long) row.get("count"));
    }
    return out;
  }

  /**
   * Another jar registers {@code yt} from a package under {@code org.apache.spark}, as SPYT's do:
   * Spark gives the short name to it (with a warning), and the full class name of our provider
   * still reads and writes with ours. {@link SourceLookupTest} has the other cases.
   */
  @Test
  void besideASpytLikeSourceTheClassNameWorks() throws Exception {
    SparkDistribution spark = SparkDistribution.fromBuild("current");
    SparkSubmitRun.Result result =
        runQueueToTable(
            spark,
            "clash",
            "io.ytstream.spark.YtDataSource",
            List.of(JobJars.registering(SpytLikeYtSource.class, work)));
    assertEquals(
        SpytLikeYtSource.class.getName() + " was chosen for format(\"yt\")",
        result.job("short name").orElseThrow());
    assertTrue(
        result.output().contains("Multiple sources found for yt")
            && result.output().contains("defaulting to the internal datasource"),
        "Spark warns that it chose: " + result.output());
  }

  /**
   * A static table as the output: every row once, and the table's record of the query's batch
   * written with them.
   */
  @Test
  void theJarStreamsIntoAStaticTable() throws Exception {
    SparkDistribution spark = SparkDistribution.fromBuild("current");
    String root = "//home/static";
    runQueueToTable(
        spark,
        "static",
        "yt",
        List.of(),
        List.of(),
        output -> emulator.cluster().createStaticTable(output, COLUMNS),
        output -> emulator.cluster().readStaticTable(output, Optional.empty()));
    Object record =
        emulator
            .cluster()
            .staticTableAppends()
            .attribute(YPath.of(root + "/output"), "ytstream_batches")
            .orElseThrow();
    assertTrue(
        record instanceof Map<?, ?> m && m.size() == 1,
        "one query's batches recorded on the table: " + record);
  }

  /** A {@code $tablet_index} column chosen by the job: each row in the tablet it names. */
  @Test
  void theJobChoosesEachRowsTabletThroughTheJar() throws Exception {
    SparkDistribution spark = SparkDistribution.fromBuild("current");
    YPath output = YPath.of("//home/tablets/output");
    runQueueToTable(
        spark,
        "tablets",
        "yt",
        List.of(),
        List.of("select:id", "select:payload", "select:CAST(id % 3 AS BIGINT) AS `$tablet_index`"),
        table -> emulator.cluster().createOrderedTable(table, COLUMNS, 3),
        table -> emulator.cluster().outputTables().readAll(table));
    for (int tablet = 0; tablet < 3; tablet++) {
      List<Row> rows = emulator.cluster().rows(output, tablet, 0);
      assertFalse(rows.isEmpty(), "tablet " + tablet + " got rows");
      for (Row row : rows) {
        assertEquals(tablet, (Long) row.get("id") % 3, "row " + row + " in tablet " + tablet);
      }
    }
  }

  /**
   * SPYT's schema hint through the jar: a {@code yson} column read as the struct a {@code
   * <column>_hint} option names (a Spark type in JSON, as SPYT's {@code schema_hint} sends it),
   * keys the hint does not name left out, and the struct's fields written as columns.
   */
  @Test
  void aSchemaHintDecodesAYsonColumnThroughTheJar() throws Exception {
    SparkDistribution spark = SparkDistribution.fromBuild("current");
    String hint =
        "{\"type\":\"struct\",\"fields\":["
            + "{\"name\":\"name\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}},"
            + "{\"name\":\"n\",\"type\":\"integer\",\"nullable\":true,\"metadata\":{}}]}";
    runQueueToTable(
        spark,
        "hints",
        "yt",
        List.of(),
        List.of(
            "source:payload_hint=" + hint,
            "select:id",
            "select:payload.name AS name",
            "select:CAST(payload.n AS BIGINT) AS n"),
        List.of(
            new Column("id", "int64", false, false),
            Column.of("payload", YtType.optional(YtPrimitive.YSON), false)),
        (tablet, id) -> {
          Map<String, Object> payload = new TreeMap<>();
          payload.put("name", "p" + id);
          payload.put("n", id * 2);
          payload.put("unread", List.of(id));
          return Row.of("$tablet_index", (long) tablet, "id", id, "payload", payload);
        },
        table ->
            emulator
                .cluster()
                .createOrderedTable(
                    table,
                    List.of(
                        new Column("id", "int64", false, false),
                        new Column("name", "string", false, false),
                        new Column("n", "int64", false, false)),
                    2),
        table -> emulator.cluster().outputTables().readAll(table));
    List<Row> written = emulator.cluster().outputTables().readAll(YPath.of("//home/hints/output"));
    assertEquals(50, written.size());
    for (Row row : written) {
      long id = (Long) row.get("id");
      assertEquals("p" + id, row.get("name"), "row " + row);
      assertEquals(id * 2, row.get("n"), "row " + row);
    }
  }

  /**
   * A query SPYT ran moves over: its checkpoint in Cypress holds Spark's logs with SPYT's offsets
   * (two batches, the last row read of each partition), its consumer lags one batch (SPYT advances
   * it when the next batch starts), and the output holds what SPYT wrote. The job with the one jar
   * reads on from the row after the last one SPYT read: every queue row once in the output.
   */
  @Test
  void aQuerySpytRanResumesFromItsCheckpoint() throws Exception {
    SparkDistribution spark = SparkDistribution.fromBuild("current");
    InMemoryCluster cluster = emulator.cluster();
    String root = "//home/spyt";
    YPath queue = YPath.of(root + "/queue");
    YPath consumer = YPath.of(root + "/consumer");
    YPath output = YPath.of(root + "/output");
    cluster.createOrderedTable(queue, COLUMNS, 2);
    cluster.createConsumer(consumer);
    cluster.registerConsumer(queue, consumer, true);
    cluster.createOrderedTable(output, COLUMNS, 2);
    // SPYT's batch 0 read rows 0..9 of partition 0 and 0..4 of partition 1; batch 1 up to 14, 9.
    long[] lastReadBySpyt = {14, 9};
    List<Long> expected = new ArrayList<>();
    for (int tablet = 0; tablet < 2; tablet++) {
      List<Row> rows = new ArrayList<>();
      List<Row> written = new ArrayList<>();
      for (long i = 0; i < 25; i++) {
        long id = tablet * 100L + i;
        rows.add(Row.of("$tablet_index", (long) tablet, "id", id, "payload", "p" + id));
        if (i <= lastReadBySpyt[tablet]) {
          written.add(Row.of("$tablet_index", (long) tablet, "id", id, "payload", "p" + id));
        }
        expected.add(id);
      }
      cluster.outputTables().append(queue, rows);
      cluster.outputTables().append(output, written);
    }
    ConsumerId consumerId = new ConsumerId(cluster.name(), consumer);
    QueueId queueId = new QueueId(cluster.name(), queue);
    cluster
        .consumerOffsets()
        .advance(consumerId, new PartitionId(queueId, 0), OptionalLong.empty(), 10);
    cluster
        .consumerOffsets()
        .advance(consumerId, new PartitionId(queueId, 1), OptionalLong.empty(), 5);
    YPath checkpoint = YPath.of(root + "/checkpoint");
    String spark3Meta =
        "{\"batchWatermarkMs\":0,\"batchTimestampMs\":1700000000000,\"conf\":"
            + "{\"spark.sql.shuffle.partitions\":\"200\"}}";
    writeFile(cluster, checkpoint, "metadata", "{\"id\":\"" + UUID.randomUUID() + "\"}");
    writeFile(
        cluster, checkpoint, "offsets/0", "v1\n" + spark3Meta + "\n" + spytOffsets(queue, 9, 4));
    writeFile(cluster, checkpoint, "commits/0", "v1\n{\"nextBatchWatermarkMs\":0}");
    writeFile(
        cluster, checkpoint, "offsets/1", "v1\n" + spark3Meta + "\n" + spytOffsets(queue, 14, 9));
    writeFile(cluster, checkpoint, "commits/1", "v1\n{\"nextBatchWatermarkMs\":0}");

    SparkSubmitRun.Result result =
        SparkSubmitRun.submit(
            spark,
            Map.of(
                "spark.hadoop.yt.proxy",
                emulator.url(),
                "spark.hadoop.yt.token",
                TOKEN,
                "spark.ui.enabled",
                "false",
                "spark.local.dir",
                work.resolve("local").toString()),
            List.of(connectorJar()),
            QueueToTableJob.class.getName(),
            jobJar,
            List.of(
                "yt",
                queue.toString(),
                consumer.toString(),
                output.toString(),
                "yt://" + checkpoint.value().substring(1)),
            work.resolve("spyt.log"),
            Duration.ofMinutes(3));

    assertEquals(0, result.exitCode(), "spark-submit failed; its output: " + result.output());
    assertEquals("25", result.job("input rows").orElseThrow(), "the rows SPYT had not read");
    assertEquals(
        1,
        result
            .output()
            .lines()
            .filter(l -> l.contains("resumes from a checkpoint SPYT wrote"))
            .count(),
        "the conversion is logged once: " + result.output());
    List<Long> written = new ArrayList<>();
    for (Row row : cluster.outputTables().readAll(output)) {
      written.add((Long) row.get("id"));
    }
    written.sort(Long::compare);
    assertEquals(expected, written, "every queue row once: SPYT's rows and ours");
    assertEquals(
        50,
        cluster.consumerOffsets().read(consumerId, queueId).total(),
        "the consumer moved to the end");
    assertTrue(
        cluster.exists(YPath.of(checkpoint.value() + "/commits/2")), "the next batch is logged");
    assertTrue(
        new String(
                cluster.checkpoints().readFile(YPath.of(checkpoint.value() + "/offsets/2")),
                StandardCharsets.UTF_8)
            .contains("{\"version\":1,\"queues\""),
        "the batches after SPYT's are logged in ytstream's form");
  }

  /** SPYT's offset of a queue of two partitions: the last row read of each. */
  private static String spytOffsets(YPath queue, long lastRead0, long lastRead1) {
    return "{\"cluster\":\""
        + emulator.cluster().name()
        + "\",\"path\":\""
        + queue
        + "\",\"partitions\":{\"0\":"
        + lastRead0
        + ",\"1\":"
        + lastRead1
        + "}}";
  }

  private static void writeFile(InMemoryCluster cluster, YPath root, String name, String text) {
    YPath file = YPath.of(root.value() + "/" + name);
    cluster
        .checkpoints()
        .createDirectories(YPath.of(file.value().substring(0, file.value().lastIndexOf('/'))));
    cluster.checkpoints().writeFile(file, text.getBytes(StandardCharsets.UTF_8), false);
  }

  private static SparkSubmitRun.Result runQueueToTable(
      SparkDistribution spark, String name, String format, List<Path> moreJars) throws Exception {
    return runQueueToTable(
        spark,
        name,
        format,
        moreJars,
        List.of(),
        output -> emulator.cluster().createOrderedTable(output, COLUMNS, 2),
        output -> emulator.cluster().outputTables().readAll(output));
  }

  private static SparkSubmitRun.Result runQueueToTable(
      SparkDistribution spark,
      String name,
      String format,
      List<Path> moreJars,
      List<String> jobArgs,
      Consumer<YPath> create,
      Function<YPath, List<Row>> read)
      throws Exception {
    return runQueueToTable(
        spark,
        name,
        format,
        moreJars,
        jobArgs,
        COLUMNS,
        (tablet, id) -> Row.of("$tablet_index", (long) tablet, "id", id, "payload", "p" + id),
        create,
        read);
  }

  /**
   * Sets up a queue of {@code queueColumns} with 50 rows in 2 partitions ({@code queueRow} makes
   * the row of an id in a tablet), submits the job (with {@code jobArgs} after the five it always
   * takes) and checks what it wrote into the output {@code create} made, read back by {@code read}.
   */
  private static SparkSubmitRun.Result runQueueToTable(
      SparkDistribution spark,
      String name,
      String format,
      List<Path> moreJars,
      List<String> jobArgs,
      List<Column> queueColumns,
      BiFunction<Integer, Long, Row> queueRow,
      Consumer<YPath> create,
      Function<YPath, List<Row>> read)
      throws Exception {
    InMemoryCluster cluster = emulator.cluster();
    String root = "//home/" + name;
    YPath queue = YPath.of(root + "/queue");
    YPath consumer = YPath.of(root + "/consumer");
    YPath output = YPath.of(root + "/output");
    cluster.createOrderedTable(queue, queueColumns, 2);
    cluster.createConsumer(consumer);
    cluster.registerConsumer(queue, consumer, true);
    create.accept(output);
    List<Long> expected = new ArrayList<>();
    for (int tablet = 0; tablet < 2; tablet++) {
      List<Row> rows = new ArrayList<>();
      for (long id = tablet * 100L; id < tablet * 100L + 25; id++) {
        rows.add(queueRow.apply(tablet, id));
        expected.add(id);
      }
      cluster.outputTables().append(queue, rows);
    }

    Path connector = connectorJar();
    List<Path> jars = new ArrayList<>(List.of(connector));
    jars.addAll(moreJars);
    long started = System.nanoTime();
    SparkSubmitRun.Result result =
        SparkSubmitRun.submit(
            spark,
            Map.of(
                "spark.hadoop.yt.proxy",
                emulator.url(),
                "spark.hadoop.yt.token",
                TOKEN,
                "spark.ui.enabled",
                "false",
                "spark.local.dir",
                work.resolve("local").toString()),
            jars,
            QueueToTableJob.class.getName(),
            jobJar,
            args(
                List.of(
                    format,
                    queue.toString(),
                    consumer.toString(),
                    output.toString(),
                    "yt://" + root.substring(1) + "/checkpoint"),
                jobArgs),
            work.resolve(name + ".log"),
            Duration.ofMinutes(3));
    System.out.printf(
        "spark-submit on Spark %s (%s): exit %d in %.1f s%n",
        spark.version(), name, result.exitCode(), (System.nanoTime() - started) / 1e9);

    assertEquals(0, result.exitCode(), "spark-submit failed; its output: " + result.output());
    assertEquals(spark.version(), result.job("spark.version").orElseThrow());
    assertEquals(
        connector.toUri().toString(),
        Path.of(java.net.URI.create(result.job("provider from").orElseThrow())).toUri().toString(),
        "the yt provider came from the one jar");
    assertEquals("50", result.job("input rows").orElseThrow());
    List<Long> written = new ArrayList<>();
    for (Row row : read.apply(output)) {
      written.add((Long) row.get("id"));
    }
    written.sort(Long::compare);
    assertEquals(expected, written, "every queue row once in the output table");
    assertEquals(
        50,
        cluster
            .consumerOffsets()
            .read(new ConsumerId(cluster.name(), consumer), new QueueId(cluster.name(), queue))
            .total(),
        "the consumer moved to the end");
    assertTrue(cluster.exists(YPath.of(root + "/checkpoint/commits/0")), "checkpoint in Cypress");
    assertFalse(result.output().contains(TOKEN), "the token is not in spark-submit's output");
    return result;
  }

  private static List<String> args(List<String> first, List<String> more) {
    List<String> all = new ArrayList<>(first);
    all.addAll(more);
    return all;
  }

  private static Path connectorJar() {
    Path jar = Path.of(System.getProperty("connector.jar", "missing"));
    assertTrue(Files.isRegularFile(jar), "package builds the connector jar: " + jar);
    return jar;
  }
}
