package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.InMemoryClusters;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.config.YtSettings;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;

/**
 * {@code max_bytes_per_trigger} and {@code max_bytes_per_partition} through Spark: every batch's
 * rows weigh at most the cap, but for a batch of one row larger than it, and every row arrives
 * once. Weights follow the server's rule ({@code ordered_dynamic_store.cpp}, {@code WriteRow}): a
 * row of {@code id int64, payload string} in a queue that declares {@code $cumulative_data_weight}
 * weighs 1 + 8 + the payload's bytes + 8.
 */
class ByteCapsSparkTest {

  private static final int ROWS_PER_PARTITION = 40;

  private final SparkSession spark = SharedSpark.get();

  private static long weight(String payload) {
    return 1 + 8 + payload.length() + 8;
  }

  private static List<Column> queueColumns(boolean weightColumn) {
    List<Column> columns = new ArrayList<>(TestCluster.QUEUE_COLUMNS);
    if (weightColumn) {
      columns.add(new Column("$cumulative_data_weight", "int64", false, false));
    }
    return columns;
  }

  /** Two partitions of rows of mixed sizes, some larger than any cap below. */
  private static void fill(InMemoryCluster cluster) {
    cluster.createOrderedTable(YPath.of("//q"), queueColumns(true), 2);
    cluster.createConsumer(YPath.of("//c"));
    cluster.registerConsumer(YPath.of("//q"), YPath.of("//c"), true);
    SplittableRandom random = new SplittableRandom(42);
    for (int tablet = 0; tablet < 2; tablet++) {
      List<io.ytstream.ports.Row> rows = new ArrayList<>();
      for (int i = 0; i < ROWS_PER_PARTITION; i++) {
        int size = random.nextInt(6) == 0 ? 500 + random.nextInt(300) : random.nextInt(80);
        long id = tablet * 1000L + i;
        rows.add(
            io.ytstream.ports.Row.of(
                "$tablet_index", (long) tablet, "id", id, "payload", "x".repeat(size)));
      }
      cluster.outputTables().append(YPath.of("//q"), rows);
    }
  }

  /** Each batch's rows as (id, weight), through foreachBatch under Trigger.AvailableNow. */
  private List<List<long[]>> run(Map<String, String> options, String checkpoint) throws Exception {
    List<List<long[]>> batches = Collections.synchronizedList(new ArrayList<>());
    var reader = spark.readStream().format("yt").option("consumer_path", "//c");
    for (Map.Entry<String, String> o : options.entrySet()) {
      reader = reader.option(o.getKey(), o.getValue());
    }
    StreamingQuery q =
        reader
            .load("//q")
            .writeStream()
            .option("checkpointLocation", checkpoint)
            .trigger(Trigger.AvailableNow())
            .foreachBatch(
                (batch, id) -> {
                  List<long[]> rows = new ArrayList<>();
                  for (Row r : batch.select("id", "payload").collectAsList()) {
                    rows.add(new long[] {r.getLong(0), weight(r.getString(1))});
                  }
                  if (!rows.isEmpty()) {
                    batches.add(rows);
                  }
                })
            .start();
    try {
      q.awaitTermination();
    } finally {
      q.stop();
    }
    return batches;
  }

  /** Every row once; every batch within the caps unless it is one row (per partition or all). */
  private static void assertCapped(List<List<long[]>> batches, long perTrigger, long perPartition) {
    List<Long> ids = new ArrayList<>();
    int oversized = 0;
    for (List<long[]> batch : batches) {
      long total = 0;
      Map<Long, long[]> byPartition = new TreeMap<>();
      for (long[] row : batch) {
        ids.add(row[0]);
        total += row[1];
        long[] p = byPartition.computeIfAbsent(row[0] / 1000, k -> new long[2]);
        p[0]++;
        p[1] += row[1];
      }
      if (total > perTrigger) {
        assertEquals(1, batch.size(), "a batch over the trigger cap is one row: " + total);
        oversized++;
      }
      for (long[] p : byPartition.values()) {
        if (p[1] > perPartition) {
          assertEquals(1, p[0], "a partition's share over its cap is one row: " + p[1]);
          oversized++;
        }
      }
    }
    ids.sort(Long::compare);
    List<Long> expected = new ArrayList<>();
    for (long tablet = 0; tablet < 2; tablet++) {
      for (long i = 0; i < ROWS_PER_PARTITION; i++) {
        expected.add(tablet * 1000 + i);
      }
    }
    assertEquals(expected, ids, "every row arrives once");
    assertTrue(oversized > 0, "rows larger than the caps came one at a time");
    assertTrue(batches.size() > 10, "the caps cut the backlog into batches: " + batches.size());
  }

  @Test
  void batchesWithinTheTriggerCapOverTheInMemoryCluster() throws Exception {
    InMemoryCluster cluster = new InMemoryCluster("bytes-" + UUID.randomUUID(), new ManualClock());
    InMemoryClusters.register(cluster);
    try {
      spark.conf().set(YtSettings.PROXY, "inmemory:" + cluster.name());
      fill(cluster);
      assertCapped(
          run(Map.of("max_bytes_per_trigger", "400"), "yt:///ckpt/bytes-trigger"),
          400,
          Long.MAX_VALUE);
    } finally {
      InMemoryClusters.remove(cluster.name());
    }
  }

  /** The HTTP adapter reads {@code $cumulative_data_weight} off the emulator's pulls. */
  @Test
  void batchesWithinBothCapsOverTheEmulator() throws Exception {
    try (YtEmulator emulator = YtEmulator.start(EmulatorOptions.defaults())) {
      spark.conf().set(YtSettings.PROXY, emulator.url());
      fill(emulator.cluster());
      assertCapped(
          run(
              Map.of("max_bytes_per_trigger", "600", "max_bytes_per_partition", "250"),
              "yt:///ckpt/bytes-both"),
          600,
          250);
    }
  }

  @Test
  void aQueueWithoutTheColumnIsRefusedNamingTheOptionTheQueueAndTheFix() {
    InMemoryCluster cluster = new InMemoryCluster("bytes-" + UUID.randomUUID(), new ManualClock());
    InMemoryClusters.register(cluster);
    try {
      spark.conf().set(YtSettings.PROXY, "inmemory:" + cluster.name());
      cluster.createOrderedTable(YPath.of("//plain"), queueColumns(false), 1);
      cluster.createConsumer(YPath.of("//c"));
      cluster.registerConsumer(YPath.of("//plain"), YPath.of("//c"), true);
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  spark
                      .readStream()
                      .format("yt")
                      .option("consumer_path", "//c")
                      .option("max_bytes_per_trigger", "1048576")
                      .load("//plain"));
      String m = e.getMessage();
      assertTrue(m.contains("option max_bytes_per_trigger = 1048576"), m);
      assertTrue(m.contains("queue //plain does not declare $cumulative_data_weight"), m);
      assertTrue(m.contains("{name=\"$cumulative_data_weight\"; type=int64}"), m);
      assertTrue(m.contains("max_rows_per_trigger"), m);
    } finally {
      InMemoryClusters.remove(cluster.name());
    }
  }
}
