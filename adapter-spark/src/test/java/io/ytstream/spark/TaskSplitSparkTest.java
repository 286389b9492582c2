package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.ServiceColumns;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.config.YtSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * One queue partition's backlog read by several tasks ({@code min_tasks}, {@code
 * max_rows_per_task}): every row lands exactly once when a split batch fails half-written and the
 * query restarts with other split options, and when a driver stops after the sink committed a split
 * batch and the batch runs again under other options; the producer sink refuses a split source.
 */
class TaskSplitSparkTest {

  private static final int ROWS = 40;

  private final SparkSession spark = SharedSpark.get();

  @AfterEach
  void reset() {
    spark.conf().unset(YtSettings.TRANSACTIONAL);
    spark.conf().unset(YtSettings.DYN_BATCH_SIZE);
  }

  private static TestCluster backlog(TestCluster c) {
    c.queue("//q", 1).consumer("//c", "//q");
    c.produce("//q", 0, 0, ROWS);
    return c;
  }

  /** The source: the whole backlog in one batch, its tasks cut as {@code split} says. */
  private Dataset<org.apache.spark.sql.Row> read(Map<String, String> split, boolean positions) {
    return spark
        .readStream()
        .format("yt")
        .option("consumer_path", "//c")
        .option("max_rows_per_partition", Integer.toString(ROWS))
        .option("include_service_columns", Boolean.toString(positions))
        .options(split)
        .load("//q");
  }

  private static void runToEnd(Dataset<org.apache.spark.sql.Row> df, Map<String, String> sink)
      throws Exception {
    StreamingQuery q =
        df.writeStream()
            .format("yt")
            .option("path", "//out")
            .options(sink)
            .trigger(Trigger.AvailableNow())
            .start();
    try {
      q.awaitTermination();
    } finally {
      q.stop();
    }
  }

  private static String failure(Executable action) {
    Throwable t = assertThrows(Throwable.class, action);
    StringBuilder all = new StringBuilder();
    for (Throwable e = t; e != null; e = e.getCause()) {
      all.append(e.getMessage()).append(" | ");
    }
    return all.toString();
  }

  private static void assertMentions(String message, String... parts) {
    for (String part : parts) {
      assertTrue(message.contains(part), "expected '" + part + "' in: " + message);
    }
  }

  @Test
  void transactionalEveryRowOnceAcrossAHalfWrittenSplitBatchAndChangedOptions() throws Exception {
    TestCluster c = backlog(TestCluster.create(spark, "split-tx"));
    c.orderedTable("//out", 2);
    spark.conf().set(YtSettings.TRANSACTIONAL, "true");
    spark.conf().set(YtSettings.DYN_BATCH_SIZE, "1"); // one insert per row
    Map<String, String> ckpt = Map.of("checkpointLocation", "yt:///ckpt/tx");
    // Four tasks of 10 rows; the batch fails after 15 rows were inserted into its transaction.
    c.cluster.faults().skipNext(ClusterOperation.INSERT, 15);
    c.cluster.faults().failNext(ClusterOperation.INSERT, 1, YtErrorCode.GENERIC, "injected");
    assertThrows(
        StreamingQueryException.class, () -> runToEnd(read(Map.of("min_tasks", "4"), false), ckpt));
    assertEquals(1, c.cluster.faults().firedCount(ClusterOperation.INSERT));
    assertEquals(List.of(), c.ids("//out"), "the half-written batch committed nothing");
    assertEquals(0, c.consumerTotal("//c", "//q"));

    // The restarted query runs the logged batch again in six tasks of at most 7 rows.
    runToEnd(read(Map.of("max_rows_per_task", "7"), false), ckpt);
    assertEquals(TestCluster.range(0, ROWS), c.ids("//out"));
    assertEquals(ROWS, c.consumerTotal("//c", "//q"));

    // A driver stopped after the commit, before commits/N: the batch runs again, one task now.
    c.dropLastCommit("//ckpt/tx");
    runToEnd(read(Map.of(), false), ckpt);
    assertEquals(TestCluster.range(0, ROWS), c.ids("//out"), "nothing written twice");
    assertTrue(c.cluster.liveTransactions().isEmpty(), "no transaction left open");
  }

  @Test
  void idempotentEveryRowOnceAcrossAHalfWrittenSplitBatchAndChangedOptions() throws Exception {
    TestCluster c = backlog(TestCluster.create(spark, "split-idem"));
    c.sortedTable(
        "//out",
        List.of(
            new Column(ServiceColumns.TABLET_INDEX, "int64", true, true),
            new Column(ServiceColumns.ROW_INDEX, "int64", true, true),
            new Column("id", "int64", false, false),
            new Column("payload", "string", false, false),
            new Column("task", "int64", false, false)));
    spark.conf().set(YtSettings.DYN_BATCH_SIZE, "5");
    Map<String, String> ckpt = Map.of("checkpointLocation", "yt:///ckpt/idem");
    // Four tasks of two upserts each; every upsert after the third fails, retries too.
    c.cluster.faults().skipNext(ClusterOperation.OUTPUT_UPSERT, 3);
    c.cluster.faults().failNext(ClusterOperation.OUTPUT_UPSERT, 100, YtErrorCode.GENERIC, "down");
    assertThrows(
        StreamingQueryException.class,
        () -> runToEnd(withTask(read(Map.of("min_tasks", "4"), true)), ckpt));
    c.cluster.faults().clearPending();
    assertEquals(15, c.ids("//out").size(), "three upserts of 5 rows landed before the failure");
    assertEquals(0, c.consumerTotal("//c", "//q"));

    runToEnd(withTask(read(Map.of("max_rows_per_task", "7"), true)), ckpt);
    assertEveryRowOnceByPosition(c);
    assertEquals(6, rowsByTask(c).size(), "40 rows in tasks of at most 7");
    rowsByTask(c).values().forEach(n -> assertTrue(n <= 7, "a task read " + n + " rows"));
    assertEquals(ROWS, c.consumerTotal("//c", "//q"));

    c.dropLastCommit("//ckpt/idem");
    runToEnd(withTask(read(Map.of("min_tasks", "3"), true)), ckpt);
    assertEveryRowOnceByPosition(c);
    assertEquals(3, rowsByTask(c).size(), "the batch ran again in three tasks");
  }

  @Test
  void staticTableEveryRowOnceWhenACommittedSplitBatchRunsAgainUnderOtherOptions()
      throws Exception {
    TestCluster c = backlog(TestCluster.create(spark, "split-static"));
    c.cluster.createStaticTable(YPath.of("//out"), TestCluster.QUEUE_COLUMNS);
    Map<String, String> ckpt = Map.of("checkpointLocation", "yt:///ckpt/static");
    runToEnd(read(Map.of("min_tasks", "4"), false), ckpt);
    assertEquals(TestCluster.range(0, ROWS), staticIds(c));

    // A driver stopped after the batch's master transaction committed, before commits/N.
    c.dropLastCommit("//ckpt/static");
    runToEnd(read(Map.of("max_rows_per_task", "7"), false), ckpt);
    assertEquals(TestCluster.range(0, ROWS), staticIds(c), "nothing written twice");
    assertEquals(ROWS, c.consumerTotal("//c", "//q"));
  }

  private static List<Long> staticIds(TestCluster c) {
    List<Long> ids = new ArrayList<>();
    for (Row r : c.cluster.staticTableAppends().readAll(YPath.of("//out"))) {
      ids.add((Long) r.get("id"));
    }
    ids.sort(Long::compare);
    return ids;
  }

  @Test
  void aSplitBatchReadsEachRowOnceInContiguousRangesOnePerTask() throws Exception {
    TestCluster c = backlog(TestCluster.create(spark, "split-alo"));
    c.orderedTable(
        "//out",
        List.of(
            new Column("id", "int64", false, false),
            new Column("payload", "string", false, false),
            new Column("task", "int64", false, false)),
        1);
    runToEnd(
        withTask(read(Map.of("min_tasks", "4"), false)),
        Map.of("checkpointLocation", "yt:///ckpt/alo"));
    assertEquals(TestCluster.range(0, ROWS), c.ids("//out"));
    Map<Long, TreeSet<Long>> idsByTask = new TreeMap<>();
    for (Row r : c.rows("//out")) {
      idsByTask.computeIfAbsent((Long) r.get("task"), t -> new TreeSet<>()).add((Long) r.get("id"));
    }
    List<List<Long>> ranges = new ArrayList<>();
    idsByTask.values().forEach(ids -> ranges.add(List.of(ids.first(), ids.last())));
    assertEquals(
        List.of(List.of(0L, 9L), List.of(10L, 19L), List.of(20L, 29L), List.of(30L, 39L)),
        ranges,
        "task t read rows [10t, 10t + 10)");
  }

  @Test
  void theProducerSinkRefusesASplitSourceBeforeWritingAnything() {
    TestCluster c = backlog(TestCluster.create(spark, "split-producer"));
    c.orderedTable("//out", 2);
    c.cluster.createQueueProducer(YPath.of("//producer"));
    String m =
        failure(
            () ->
                runToEnd(
                    read(Map.of("min_tasks", "2"), false),
                    Map.of(
                        "producer_path",
                        "//producer",
                        "checkpointLocation",
                        "yt:///ckpt/producer")));
    assertMentions(
        m,
        "option producer_path = '//producer' cannot be combined with the yt source's min_tasks = 2",
        "would land twice",
        "Remove min_tasks and max_rows_per_task",
        YtSettings.TRANSACTIONAL + "=true");
    assertEquals(List.of(), c.ids("//out"));
    assertEquals(0, c.consumerTotal("//c", "//q"));
  }

  private static Dataset<org.apache.spark.sql.Row> withTask(Dataset<org.apache.spark.sql.Row> df) {
    return df.withColumn("task", functions.spark_partition_id().cast("long"));
  }

  private static void assertEveryRowOnceByPosition(TestCluster c) {
    List<Row> rows = c.rows("//out");
    assertEquals(ROWS, rows.size());
    for (Row r : rows) {
      assertEquals(0L, r.get(ServiceColumns.TABLET_INDEX));
      assertEquals(r.get(ServiceColumns.ROW_INDEX), r.get("id"), "keyed by source position");
    }
    assertEquals(TestCluster.range(0, ROWS), c.ids("//out"));
  }

  private static Map<Long, Integer> rowsByTask(TestCluster c) {
    Map<Long, Integer> out = new TreeMap<>();
    for (Row r : c.rows("//out")) {
      out.merge((Long) r.get("task"), 1, Integer::sum);
    }
    return out;
  }
}
