package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.ServiceColumns;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.InMemoryClusters;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.TableDescription.Column;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * {@code spark.read().format("yt")}: a range of one or more queues read without any consumer, by
 * offsets or by time, in tasks of bounded size, trimmed rows under {@code fail_on_data_loss}; and
 * {@code starting_timestamp} for a new stream. The cluster's clock is manual: second {@code s}
 * after {@link #T0} holds the rows committed while the clock stood there.
 */
class StaticReadTest {

  private static final AtomicInteger COUNTER = new AtomicInteger();
  static final long T0 = 1_704_067_200_000L;

  private final SparkSession spark = SharedSpark.get();
  private final ManualClock clock = new ManualClock(T0);
  private String name;
  private InMemoryCluster cluster;

  @BeforeEach
  void cluster() {
    name = "staticread" + COUNTER.incrementAndGet();
    cluster = new InMemoryCluster(name, clock);
    InMemoryClusters.register(cluster);
    spark.conf().set("spark.hadoop.yt.proxy", "inmemory:" + name);
  }

  @AfterEach
  void forget() {
    InMemoryClusters.remove(name);
  }

  private void queue(String path, int tablets, boolean withTimestamp) {
    List<Column> columns = new ArrayList<>(TestCluster.QUEUE_COLUMNS);
    if (withTimestamp) {
      columns.add(new Column("$timestamp", "uint64", false, false));
    }
    cluster.createOrderedTable(YPath.of(path), columns, tablets);
  }

  private void produce(String queue, int tablet, long from, long to) {
    List<io.ytstream.ports.Row> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(
          io.ytstream.ports.Row.of("$tablet_index", (long) tablet, "id", id, "payload", "p" + id));
    }
    cluster.outputTables().append(YPath.of(queue), rows);
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
  void theWholeQueueByDefaultAndAJsonRangeWithoutAnyConsumer() {
    queue("//q", 2, false);
    produce("//q", 0, 0, 8);
    produce("//q", 1, 100, 108);

    assertEquals(
        concat(TestCluster.range(0, 8), TestCluster.range(100, 108)), ids(read().load("//q")));
    assertEquals(
        concat(TestCluster.range(2, 5), TestCluster.range(100, 108)),
        ids(
            read()
                .option("starting_offsets", "{\"//q\": {\"0\": 2, \"1\": -2}}")
                .option("ending_offsets", "{\"//q\": {\"0\": 5, \"1\": -1}}")
                .load("//q")));
    assertEquals(
        TestCluster.range(106, 108),
        ids(
            read()
                .option("starting_offsets", "{\"//q\": {\"0\": 8, \"1\": 6}}")
                .option("ending_offsets", "latest")
                .load("//q")));
    assertTrue(cluster.registrations().isEmpty(), "no consumer registered, none needed");
  }

  @Test
  void theSchemaAndServiceColumnsAreTheStreamsAndSeveralQueuesReadTogether() {
    queue("//q", 1, false);
    queue("//r", 2, false);
    produce("//q", 0, 0, 3);
    produce("//r", 1, 100, 102);

    Dataset<Row> df = read().option("include_service_columns", "true").load("//q", "//r");
    assertEquals(
        List.of(
            "id",
            "payload",
            ServiceColumns.TABLET_INDEX,
            ServiceColumns.ROW_INDEX,
            ServiceColumns.QUEUE),
        List.of(df.schema().fieldNames()));
    List<String> rows = new ArrayList<>();
    for (Row r :
        df.select("id", ServiceColumns.QUEUE, ServiceColumns.TABLET_INDEX, ServiceColumns.ROW_INDEX)
            .collectAsList()) {
      rows.add(r.getLong(0) + "@" + r.getString(1) + "/" + r.getLong(2) + "/" + r.getLong(3));
    }
    Collections.sort(rows);
    assertEquals(
        List.of("0@//q/0/0", "100@//r/1/0", "101@//r/1/1", "1@//q/0/1", "2@//q/0/2"), rows);
  }

  @Test
  void rangesAreSplitIntoTasksOfAtMostMaxRowsPerPartition() {
    queue("//q", 2, false);
    produce("//q", 0, 0, 10);
    produce("//q", 1, 100, 103);

    Dataset<Row> df = read().option("max_rows_per_partition", "4").load("//q");
    // Partition 0: [0,4) [4,8) [8,10); partition 1: [0,3).
    assertEquals(4, df.rdd().getNumPartitions());
    assertEquals(concat(TestCluster.range(0, 10), TestCluster.range(100, 103)), ids(df));
    assertEquals(2, read().load("//q").rdd().getNumPartitions(), "default: one task per partition");
  }

  @Test
  void trimmedRowsFailTheReadOrAreSkipped() {
    queue("//q", 2, false);
    produce("//q", 0, 0, 8);
    produce("//q", 1, 100, 104);
    cluster.trimRows(YPath.of("//q"), 0, 3);

    String m =
        failure(
            () ->
                ids(
                    read()
                        .option("starting_offsets", "{\"//q\": {\"0\": 0, \"1\": 0}}")
                        .load("//q")));
    assertMentions(m, "trimmed");
    Dataset<Row> skipping =
        read()
            .option("starting_offsets", "{\"//q\": {\"0\": 0, \"1\": 0}}")
            .option("fail_on_data_loss", "false")
            .load("//q");
    List<Long> read = new ArrayList<>();
    for (Row r : skipping.collectAsList()) {
      read.add(r.<Long>getAs("id"));
    }
    read.sort(Long::compare);
    assertEquals(concat(TestCluster.range(3, 8), TestCluster.range(100, 104)), read);
    // The three rows skipped when the read was planned are the scan's lostRows SQL metric.
    SparkPlan scan = skipping.queryExecution().executedPlan().collectLeaves().head();
    assertEquals(3L, scan.metrics().get("lostRows").get().value(), scan.toString());
    // earliest starts at the first row left: no loss.
    assertEquals(
        concat(TestCluster.range(3, 8), TestCluster.range(100, 104)), ids(read().load("//q")));
  }

  @Test
  void aRangeByTimeReadsTheRowsOfItsSeconds() {
    queue("//q", 2, true);
    produce("//q", 0, 0, 3); // second 0
    clock.advanceMillis(1_000);
    produce("//q", 0, 3, 6); // second 1
    produce("//q", 1, 100, 102);
    clock.advanceMillis(1_000);
    produce("//q", 0, 6, 9); // second 2
    produce("//q", 1, 102, 104);

    assertEquals(
        concat(TestCluster.range(3, 6), TestCluster.range(100, 102)),
        ids(
            read()
                .option("starting_timestamp", Long.toString(T0 + 1_000))
                .option("ending_timestamp", Long.toString(T0 + 2_000))
                .load("//q")));
    // The server's timestamps hold whole seconds: any instant of second 1 starts at its first row.
    assertEquals(
        concat(TestCluster.range(3, 9), TestCluster.range(100, 104)),
        ids(read().option("starting_timestamp", Long.toString(T0 + 1_999)).load("//q")));
    assertEquals(
        TestCluster.range(0, 3),
        ids(read().option("ending_timestamp", Long.toString(T0 + 1_000)).load("//q")));
    assertEquals(
        List.of(),
        ids(read().option("starting_timestamp", Long.toString(T0 + 60_000)).load("//q")));
    assertTrue(cluster.registrations().isEmpty(), "no consumer registered, none needed");
  }

  @Test
  void badOptionsAreRefusedNamingTheOption() {
    queue("//q", 1, false);
    produce("//q", 0, 0, 4);
    cluster.createConsumer(YPath.of("//c"));
    cluster.registerConsumer(YPath.of("//q"), YPath.of("//c"), true);

    assertMentions(
        failure(() -> ids(read().option("starting_timestamp", T0 + "").load("//q"))),
        "option starting_timestamp finds rows by their $timestamp",
        "does not declare $timestamp");
    assertMentions(
        failure(() -> ids(read().option("starting_timestamp", "yesterday").load("//q"))),
        "option starting_timestamp must be milliseconds since the epoch",
        "got 'yesterday'");
    assertMentions(
        failure(
            () ->
                ids(
                    read()
                        .option("starting_offsets", "earliest")
                        .option("starting_timestamp", "0")
                        .load("//q"))),
        "options starting_offsets and starting_timestamp both say where the read starts");
    assertMentions(
        failure(() -> ids(read().option("starting_offsets", "latest").load("//q"))),
        "option starting_offsets = latest starts a static read at the end");
    assertMentions(
        failure(() -> ids(read().option("ending_offsets", "earliest").load("//q"))),
        "option ending_offsets ends a static read at the first row");
    assertMentions(
        failure(
            () ->
                ids(
                    read()
                        .option("starting_offsets", "{\"//q\": {\"0\": 3}}")
                        .option("ending_offsets", "{\"//q\": {\"0\": 1}}")
                        .load("//q"))),
        "the static read of //q partition 0 ends before it starts",
        "option ending_offsets = {\"//q\": {\"0\": 1}} ends it at row 1 (exclusive)",
        "option starting_offsets = {\"//q\": {\"0\": 3}} starts it at row 3",
        "Give an end at or after the start");
    assertMentions(
        failure(() -> ids(read().option("ending_offsets", "{\"//q\": {\"0\": 9}}").load("//q"))),
        "option ending_offsets ends //q partition 0 at 9, beyond its end (4 rows)");
    assertMentions(
        failure(() -> ids(read().option("consumer_path", "//c").load("//q"))),
        "option consumer_path is for a streaming read");
    assertMentions(
        failure(() -> ids(read().option("max_rows_per_trigger", "10").load("//q"))),
        "option max_rows_per_trigger sizes a stream's triggers");
    assertMentions(
        failure(() -> ids(read().option("max_bytes_per_trigger", "1000").load("//q"))),
        "option max_bytes_per_trigger sizes a stream's triggers");
    assertMentions(
        failure(() -> ids(read().option("max_bytes_per_partition", "1000").load("//q"))),
        "option max_bytes_per_partition caps a stream's batches",
        "use max_rows_per_partition");
    for (String split : List.of("min_tasks", "max_rows_per_task")) {
      assertMentions(
          failure(() -> ids(read().option(split, "4").load("//q"))),
          "option " + split + " splits a stream's micro-batches into tasks",
          "use max_rows_per_partition to size the tasks");
    }
    assertEquals(
        0,
        cluster
            .consumerOffsets()
            .read(new ConsumerId(name, YPath.of("//c")), new QueueId(name, YPath.of("//q")))
            .total(),
        "no consumer moved");
  }

  @Test
  void aNewStreamStartsAtATimeAndAConsumerWithAPositionRefusesIt() throws Exception {
    queue("//q", 1, true);
    cluster.createConsumer(YPath.of("//c"));
    cluster.registerConsumer(YPath.of("//q"), YPath.of("//c"), true);
    produce("//q", 0, 0, 3);
    clock.advanceMillis(1_000);
    produce("//q", 0, 3, 5);

    Dataset<Row> df =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .option("starting_timestamp", Long.toString(T0 + 1_000))
            .load("//q");
    assertEquals(TestCluster.range(3, 5), run(df, "yt:///ckpt/" + name + "/time"));

    String m = failure(() -> run(df, "yt:///ckpt/" + name + "/other"));
    assertMentions(
        m,
        "option starting_timestamp is for a query the consumer has no position for",
        "Remove starting_timestamp");
    assertEquals(
        5,
        cluster
            .consumerOffsets()
            .read(new ConsumerId(name, YPath.of("//c")), new QueueId(name, YPath.of("//q")))
            .getOrDefault(new PartitionId(new QueueId(name, YPath.of("//q")), 0), 0),
        "the first run moved the consumer to the end, the refused one did not move it");
  }

  private static List<Long> run(Dataset<Row> df, String checkpoint) throws Exception {
    List<Long> ids = Collections.synchronizedList(new ArrayList<>());
    StreamingQuery q =
        df.writeStream()
            .option("checkpointLocation", checkpoint)
            .trigger(Trigger.AvailableNow())
            .foreachBatch(
                (batch, id) -> {
                  for (Row r : batch.select("id").collectAsList()) {
                    ids.add(r.getLong(0));
                  }
                })
            .start();
    try {
      q.awaitTermination();
    } finally {
      q.stop();
    }
    List<Long> out = new ArrayList<>(ids);
    out.sort(Long::compare);
    return out;
  }
}
