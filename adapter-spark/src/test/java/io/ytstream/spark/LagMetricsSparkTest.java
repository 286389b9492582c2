package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.InMemoryClusters;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.config.YtSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;

/**
 * Lag in bytes and seconds in {@code StreamingQueryProgress.sources[].metrics}, over the in-memory
 * cluster and over the emulator's HTTP API, with the figures worked out from the server's rules: a
 * row of {@code id int64, payload string} with both lag columns weighs 1 + 8 + payload bytes + 8
 * ({@code $timestamp}) + 8 ({@code $cumulative_data_weight}) ({@code
 * yt/yt/client/table_client/unversioned_row.cpp}, {@code GetDataWeight}; {@code
 * ordered_dynamic_store.cpp}, {@code WriteRow}); seconds are whole seconds of commit time, under a
 * manual clock. A queue without the columns reports rows only.
 */
class LagMetricsSparkTest {

  private static final long P0_ROW = 1 + 8 + 2 + 8 + 8; // payload "p0".."p9"
  private static final long P1_ROW = 1 + 8 + 4 + 8 + 8; // payload "p100".."p103"

  private final SparkSession spark = SharedSpark.get();

  private static List<Column> lagColumns() {
    List<Column> columns = new ArrayList<>(TestCluster.QUEUE_COLUMNS);
    columns.add(new Column("$timestamp", "uint64", false, false));
    columns.add(new Column("$cumulative_data_weight", "int64", false, false));
    return columns;
  }

  private static void produce(InMemoryCluster cluster, int tablet, long from, long to) {
    List<Row> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(Row.of("$tablet_index", (long) tablet, "id", id, "payload", "p" + id));
    }
    cluster.outputTables().append(YPath.of("//q"), rows);
  }

  /**
   * Partition 0: rows 0..4, then 4 s later rows 5..9; partition 1: rows 100..103 at the later time.
   * Read 3 rows per partition per batch; returns the metrics of each batch with rows.
   */
  private List<Map<String, String>> run(
      InMemoryCluster cluster, ManualClock clock, List<Column> queueColumns) throws Exception {
    cluster.createOrderedTable(YPath.of("//q"), queueColumns, 2);
    cluster.createOrderedTable(YPath.of("//out"), TestCluster.QUEUE_COLUMNS, 1);
    cluster.createConsumer(YPath.of("//c"));
    cluster.registerConsumer(YPath.of("//q"), YPath.of("//c"), true);
    produce(cluster, 0, 0, 5);
    clock.advance(Duration.ofSeconds(4));
    produce(cluster, 0, 5, 10);
    produce(cluster, 1, 100, 104);
    StreamingQuery q =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .option("max_rows_per_partition", "3")
            .load("//q")
            .writeStream()
            .format("yt")
            .option("path", "//out")
            .option("checkpointLocation", "yt:///ckpt/lag")
            .trigger(Trigger.AvailableNow())
            .start();
    try {
      q.awaitTermination();
    } finally {
      q.stop();
    }
    List<Map<String, String>> metrics = new ArrayList<>();
    for (StreamingQueryProgress p : q.recentProgress()) {
      if (p.numInputRows() > 0) {
        metrics.add(p.sources()[0].metrics());
      }
    }
    assertEquals(14, cluster.outputTables().readAll(YPath.of("//out")).size());
    return metrics;
  }

  /** The figures after each batch of 3 rows per partition. */
  private static void assertLagOfEachBatch(List<Map<String, String>> metrics) {
    assertEquals(4, metrics.size(), metrics.toString());
    // After [0,3) of both: partition 0 has rows 3..9 unread (row 3 from the first second, row 9
    // from 4 s later), partition 1 has row 103.
    Map<String, String> first = metrics.get(0);
    assertEquals(Long.toString(7 * P0_ROW), first.get("maxBytesBehindLatest"), first.toString());
    assertEquals(Long.toString(P1_ROW), first.get("minBytesBehindLatest"), first.toString());
    assertEquals(
        Long.toString(7 * P0_ROW + P1_ROW), first.get("totalBytesBehindLatest"), first.toString());
    assertEquals("109.0", first.get("avgBytesBehindLatest"), first.toString());
    assertEquals("4", first.get("maxSecondsBehindLatest"), first.toString());
    assertEquals("0", first.get("minSecondsBehindLatest"), first.toString());
    assertEquals("2.0", first.get("avgSecondsBehindLatest"), first.toString());
    // After [3,6) and [3,4): rows 6..9 of partition 0, all from the later second.
    Map<String, String> second = metrics.get(1);
    assertEquals(
        Long.toString(4 * P0_ROW), second.get("totalBytesBehindLatest"), second.toString());
    assertEquals("0", second.get("maxSecondsBehindLatest"), second.toString());
    Map<String, String> third = metrics.get(2);
    assertEquals(Long.toString(P0_ROW), third.get("totalBytesBehindLatest"), third.toString());
    Map<String, String> last = metrics.get(3);
    assertEquals("0", last.get("totalBytesBehindLatest"), last.toString());
    assertEquals("0", last.get("maxSecondsBehindLatest"), last.toString());
    assertEquals("0", last.get("totalRowsBehindLatest"), last.toString());
  }

  @Test
  void bytesAndSecondsBehindOverTheInMemoryCluster() throws Exception {
    ManualClock clock = new ManualClock();
    InMemoryCluster cluster = new InMemoryCluster("lag-" + UUID.randomUUID(), clock);
    InMemoryClusters.register(cluster);
    try {
      spark.conf().set(YtSettings.PROXY, "inmemory:" + cluster.name());
      assertLagOfEachBatch(run(cluster, clock, lagColumns()));
    } finally {
      InMemoryClusters.remove(cluster.name());
    }
  }

  @Test
  void bytesAndSecondsBehindOverTheEmulator() throws Exception {
    ManualClock clock = new ManualClock();
    try (YtEmulator emulator = YtEmulator.start(EmulatorOptions.defaults().withClock(clock))) {
      spark.conf().set(YtSettings.PROXY, emulator.url());
      assertLagOfEachBatch(run(emulator.cluster(), clock, lagColumns()));
    }
  }

  @Test
  void aQueueWithoutTheColumnsReportsRowsOnly() throws Exception {
    ManualClock clock = new ManualClock();
    InMemoryCluster cluster = new InMemoryCluster("lag-" + UUID.randomUUID(), clock);
    InMemoryClusters.register(cluster);
    try {
      spark.conf().set(YtSettings.PROXY, "inmemory:" + cluster.name());
      List<Map<String, String>> metrics = run(cluster, clock, TestCluster.QUEUE_COLUMNS);
      Map<String, String> first = metrics.get(0);
      assertEquals("8", first.get("totalRowsBehindLatest"), first.toString());
      for (Map<String, String> m : metrics) {
        for (String key : m.keySet()) {
          assertFalse(key.contains("Bytes") || key.contains("Seconds"), m.toString());
        }
      }
      assertTrue(first.containsKey("maxRowsBehindLatest"), first.toString());
    } finally {
      InMemoryClusters.remove(cluster.name());
    }
  }
}
