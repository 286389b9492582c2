package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.emulator.YtEmulatorExtension;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.config.YtSettings;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link StaticReadTest}'s reads over HTTP, against the emulator: {@code pull_queue} without a
 * consumer, the hybrid {@code $timestamp} the emulator writes as the server does, several queues,
 * trimmed rows, tasks of bounded size.
 */
class StaticReadOverHttpTest {

  private final ManualClock clock = new ManualClock(StaticReadTest.T0);

  @RegisterExtension
  final YtEmulatorExtension yt =
      new YtEmulatorExtension(EmulatorOptions.defaults().withClock(clock));

  private final SparkSession spark = SharedSpark.get();
  private EmulatorCluster c;

  @BeforeEach
  void cluster(YtEmulator emulator) {
    c = new EmulatorCluster(emulator);
    spark.conf().set(YtSettings.PROXY, c.url());
  }

  @AfterEach
  void resetSession() {
    spark.conf().unset(YtSettings.PROXY);
  }

  private void queueWithTimestamp(String path, int tablets) {
    List<Column> columns = new ArrayList<>(TestCluster.QUEUE_COLUMNS);
    columns.add(new Column("$timestamp", "uint64", false, false));
    c.cluster.createOrderedTable(YPath.of(path), columns, tablets);
  }

  private DataFrameReader read() {
    return spark.read().format("yt");
  }

  private static List<Long> ids(Dataset<Row> df) {
    List<Long> ids = new ArrayList<>();
    for (Row r : df.select("id").collectAsList()) {
      ids.add(r.getLong(0));
    }
    ids.sort(Long::compare);
    return ids;
  }

  private static List<Long> concat(List<Long> a, List<Long> b) {
    List<Long> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  @Test
  void offsetsSeveralQueuesAndBoundedTasks() {
    c.queue("//q", 2).queue("//r", 1);
    c.produce("//q", 0, 0, 8);
    c.produce("//q", 1, 100, 105);
    c.produce("//r", 0, 200, 203);

    Dataset<Row> df =
        read()
            .option("starting_offsets", "{\"//q\": {\"0\": 2, \"1\": -2}, \"//r\": {\"0\": 1}}")
            .option("ending_offsets", "{\"//q\": {\"0\": 7, \"1\": -1}, \"//r\": {\"0\": -1}}")
            .option("max_rows_per_partition", "2")
            .load("//q", "//r");
    // [2,4) [4,6) [6,7) of q/0, [0,2) [2,4) [4,5) of q/1, [1,3) of r/0.
    assertEquals(7, df.rdd().getNumPartitions());
    assertEquals(
        concat(concat(TestCluster.range(2, 7), TestCluster.range(100, 105)), List.of(201L, 202L)),
        ids(df));
    assertTrue(c.cluster.registrations().isEmpty(), "no consumer registered, none needed");
  }

  @Test
  void trimmedRowsFailOrAreSkipped() {
    c.queue("//q", 1);
    c.produce("//q", 0, 0, 6);
    c.cluster.trimRows(YPath.of("//q"), 0, 2);
    Dataset<Row> fromZero = read().option("starting_offsets", "{\"//q\": {\"0\": 0}}").load("//q");

    Throwable t = assertThrows(Throwable.class, () -> ids(fromZero));
    StringBuilder all = new StringBuilder();
    for (Throwable e = t; e != null; e = e.getCause()) {
      all.append(e.getMessage()).append(" | ");
    }
    assertTrue(all.toString().contains("trimmed"), all.toString());
    assertEquals(
        TestCluster.range(2, 6),
        ids(
            read()
                .option("starting_offsets", "{\"//q\": {\"0\": 0}}")
                .option("fail_on_data_loss", "false")
                .load("//q")));
  }

  @Test
  void aRangeByTimeOverTheServersTimestamps() {
    queueWithTimestamp("//q", 2);
    c.produce("//q", 0, 0, 3);
    clock.advanceMillis(1_000);
    c.produce("//q", 0, 3, 6);
    c.produce("//q", 1, 100, 102);
    clock.advanceMillis(1_000);
    c.produce("//q", 1, 102, 104);

    assertEquals(
        concat(TestCluster.range(3, 6), TestCluster.range(100, 102)),
        ids(
            read()
                .option("starting_timestamp", Long.toString(StaticReadTest.T0 + 1_500))
                .option("ending_timestamp", Long.toString(StaticReadTest.T0 + 2_000))
                .load("//q")));
  }
}
