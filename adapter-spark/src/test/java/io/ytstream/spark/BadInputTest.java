package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.config.YtSettings;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamReader;
import org.apache.spark.sql.streaming.DataStreamWriter;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Every kind of bad input gets an error that names the option or column and the fix, and nothing is
 * written or advanced.
 */
class BadInputTest {

  private final SparkSession spark = SharedSpark.get();
  private TestCluster c;

  @BeforeEach
  void cluster() {
    c = TestCluster.create(spark, "bad");
    c.queue("//q", 2).consumer("//c", "//q").orderedTable("//out", 1);
    c.produce("//q", 0, 0, 8);
    c.produce("//q", 1, 100, 108);
  }

  @AfterEach
  void nothingHappened() {
    assertEquals(List.of(), c.rows("//out"), "no output row");
    assertEquals(0, c.consumerTotal("//c", "//q"), "no consumer advance");
    spark.conf().unset(YtSettings.TRANSACTIONAL);
    spark.conf().unset(YtSettings.MAX_ROWS_PER_TABLET);
  }

  private DataStreamReader reader() {
    return spark.readStream().format("yt").option("consumer_path", "//c");
  }

  private static DataStreamWriter<Row> writer(Dataset<Row> df, String ckpt) {
    return df.writeStream()
        .format("yt")
        .option("path", "//out")
        .option("checkpointLocation", ckpt)
        .trigger(Trigger.AvailableNow());
  }

  /** The messages of an error and all its causes, joined. */
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

  private static void runToEnd(StreamingQuery q) throws Exception {
    try {
      q.awaitTermination();
    } finally {
      q.stop();
    }
  }

  @Test
  void missingConsumerPath() {
    // load() cannot tell a stream from a static read, which needs no consumer: start() can.
    Dataset<Row> df = spark.readStream().format("yt").load("//q");
    String m = failure(() -> runToEnd(writer(df, "yt:///ckpt/bad-noconsumer").start()));
    assertMentions(m, "option consumer_path is missing", ".option(\"consumer_path\"");
  }

  @Test
  void missingOutputPath() {
    Dataset<Row> df = reader().load("//q");
    String m =
        failure(
            () ->
                runToEnd(
                    df.writeStream()
                        .format("yt")
                        .option("checkpointLocation", "yt:///ckpt/bad-nopath")
                        .trigger(Trigger.AvailableNow())
                        .start()));
    assertMentions(m, "option path is missing", ".option(\"path\", \"//home/out\")");
  }

  @Test
  void queueDoesNotExist() {
    String m = failure(() -> reader().load("//nope"));
    assertMentions(m, "queue //nope does not exist", "create it");
  }

  @Test
  void pathIsNotAQueue() {
    c.sortedTable(
        "//sorted",
        List.of(new Column("k", "int64", true, true), new Column("v", "string", false, false)));
    String m = failure(() -> reader().load("//sorted"));
    assertMentions(m, "//sorted is a sorted dynamic table, not a queue");
  }

  @Test
  void queueNotMounted() {
    c.cluster
        .faults()
        .failNext(
            ClusterOperation.PARTITIONS,
            1,
            YtErrorCode.TABLET_NOT_MOUNTED,
            "Tablet is not mounted");
    String m = failure(() -> reader().load("//q"));
    assertMentions(m, "queue //q is not mounted", "yt mount-table //q");
  }

  @Test
  void consumerDoesNotExist() {
    String m =
        failure(
            () -> spark.readStream().format("yt").option("consumer_path", "//nobody").load("//q"));
    assertMentions(m, "consumer (option consumer_path) //nobody does not exist");
  }

  @Test
  void consumerNotRegistered() {
    c.cluster.createConsumer(YPath.of("//other"));
    String m =
        failure(
            () -> spark.readStream().format("yt").option("consumer_path", "//other").load("//q"));
    assertMentions(
        m,
        "consumer //other is not registered for queue //q",
        "yt register-queue-consumer //q //other");
  }

  @Test
  void maxRowsPerPartitionMustBeAPositiveNumber() {
    for (String bad : List.of("0", "-5", "ten", "1.5")) {
      String m = failure(() -> reader().option("max_rows_per_partition", bad).load("//q"));
      assertMentions(
          m,
          "option max_rows_per_partition must be a whole number >= 1, got '" + bad + "'",
          "e.g. 1000");
    }
  }

  @Test
  void theTaskSplitOptionsMustBePositiveNumbers() {
    for (String bad : List.of("0", "-5", "ten", "1.5")) {
      assertMentions(
          failure(() -> reader().option("min_tasks", bad).load("//q")),
          "option min_tasks must be a whole number >= 1, got '" + bad + "'",
          "e.g. 8");
      assertMentions(
          failure(() -> reader().option("max_rows_per_task", bad).load("//q")),
          "option max_rows_per_task must be a whole number >= 1, got '" + bad + "'",
          "e.g. 50000");
    }
    assertMentions(
        failure(() -> reader().option("min_tasks", "4294967296").load("//q")),
        "option min_tasks must be at most 2147483647, got '4294967296'");
  }

  @Test
  void unknownOptionCloseToAKnownOneIsSuggested() {
    String m = failure(() -> reader().option("max_row_per_partition", "10").load("//q"));
    assertMentions(
        m, "unknown option 'max_row_per_partition'", "did you mean 'max_rows_per_partition'?");
    m = failure(() -> spark.readStream().format("yt").option("consumer-path", "//c").load("//q"));
    assertMentions(m, "unknown option 'consumer-path'", "did you mean 'consumer_path'?");
  }

  @Test
  void dataFrameColumnMissingFromTheTable() {
    Dataset<Row> df = reader().load("//q").withColumnRenamed("payload", "body");
    String m = failure(() -> runToEnd(writer(df, "yt:///ckpt/bad-schema1").start()));
    assertMentions(m, "schema mismatch", "'body'", "//out does not have", "[id, payload]");
  }

  @Test
  void columnTypeMismatch() {
    Dataset<Row> df =
        reader().load("//q").withColumn("id", org.apache.spark.sql.functions.col("payload"));
    String m = failure(() -> runToEnd(writer(df, "yt:///ckpt/bad-schema2").start()));
    assertMentions(
        m,
        "schema mismatch: column 'id' is string in the DataFrame but int64 in //out",
        ".cast(\"long\")");
  }

  @Test
  void outputTableDoesNotExist() {
    Dataset<Row> df = reader().load("//q");
    String m =
        failure(
            () ->
                runToEnd(
                    df.writeStream()
                        .format("yt")
                        .option("path", "//missing")
                        .option("checkpointLocation", "yt:///ckpt/bad-missing")
                        .trigger(Trigger.AvailableNow())
                        .start()));
    assertMentions(m, "output table (option path) //missing does not exist");
  }

  @Test
  void trimmedRowsFailByDefault() {
    c.cluster.trimRows(YPath.of("//q"), 1, 3);
    String m = failure(() -> runToEnd(writer(reader().load("//q"), "yt:///ckpt/bad-trim").start()));
    assertMentions(m, "data loss", "rows [0, 3) were trimmed", "fail_on_data_loss=false");
  }

  @Test
  void transactionalBatchOverThePerTabletLimitSaysHowManyTablets() {
    spark.conf().set(YtSettings.TRANSACTIONAL, "true");
    spark.conf().set(YtSettings.MAX_ROWS_PER_TABLET, "5");
    String m =
        failure(() -> runToEnd(writer(reader().load("//q"), "yt:///ckpt/bad-limit").start()));
    assertMentions(
        m,
        "would write 16 rows into //out in one transaction",
        "allows 5 rows per tablet",
        "needs at least 4 tablets (it has 1)",
        "This batch read up to 8 rows from each of 2 queue partitions",
        "max_rows_per_partition=2 fits the output");
    assertTrue(c.cluster.liveTransactions().isEmpty(), "the batch transaction was aborted");
  }

  /**
   * Each task alone holds more rows for the one output tablet than the transaction may take: the
   * tasks stop keeping rows and succeed (no task fails, so Spark retries nothing), and the driver
   * fails the batch with the counts.
   */
  @Test
  void tasksOverThePerTabletLimitStopKeepingRowsAndNoTaskIsRetried() throws Exception {
    spark.conf().set(YtSettings.TRANSACTIONAL, "true");
    spark.conf().set(YtSettings.MAX_ROWS_PER_TABLET, "5");
    FailedTasks failed = new FailedTasks();
    spark.sparkContext().addSparkListener(failed);
    try (LogCapture stopped = new LogCapture("stopped keeping rows")) {
      String m =
          failure(
              () ->
                  runToEnd(
                      writer(
                              reader().option("max_rows_per_partition", "100").load("//q"),
                              "yt:///ckpt/bad-limit-tasks")
                          .start()));
      assertMentions(m, "would write 16 rows into //out", "max_rows_per_partition=2 fits");
      assertEquals(
          2,
          stopped.leaks().stream()
              .filter(l -> l.startsWith("io.ytstream.spark.sink.TransactionalDataWriter"))
              .count(),
          "both tasks stopped keeping rows: " + stopped.leaks());
      spark.sparkContext().listenerBus().waitUntilEmpty();
      assertEquals(0, failed.count.get(), "no task failed, so none was retried");
    } finally {
      spark.sparkContext().removeSparkListener(failed);
    }
    assertTrue(c.cluster.liveTransactions().isEmpty(), "the batch transaction was aborted");
  }

  /**
   * A value the output column cannot take fails the transactional task at that row with its own
   * message, also when earlier chunks of the task would already have been inserted: every retry
   * fails the same way, and nothing reaches the table.
   */
  @Test
  void aValueTheOutputCannotTakeFailsTheTransactionalBatchNamingTheColumn() {
    spark.conf().set(YtSettings.TRANSACTIONAL, "true");
    spark.conf().set(YtSettings.DYN_BATCH_SIZE, "2");
    try {
      c.orderedTable(
          "//small",
          List.of(
              new Column("id", "int64", false, false), new Column("small", "uint8", false, false)),
          1);
      // Partition 1 has ids 100..107: 150 + 106 = 256 does not fit uint8, after 3 chunks of 2.
      Dataset<Row> df = reader().load("//q").selectExpr("id", "cast(id + 150 as int) as small");
      String m =
          failure(
              () ->
                  runToEnd(
                      df.writeStream()
                          .format("yt")
                          .option("path", "//small")
                          .option("checkpointLocation", "yt:///ckpt/bad-value")
                          .trigger(Trigger.AvailableNow())
                          .start()));
      assertMentions(m, "column small: 256 is out of range for uint8 [0, 255]");
      assertEquals(List.of(), c.rows("//small"), "nothing written");
      assertTrue(c.cluster.liveTransactions().isEmpty(), "the batch transaction was aborted");
    } finally {
      spark.conf().unset(YtSettings.DYN_BATCH_SIZE);
    }
  }

  /** Counts task ends that were not successes. */
  private static final class FailedTasks extends org.apache.spark.scheduler.SparkListener {
    final java.util.concurrent.atomic.AtomicInteger count =
        new java.util.concurrent.atomic.AtomicInteger();

    @Override
    public void onTaskEnd(org.apache.spark.scheduler.SparkListenerTaskEnd end) {
      if (!(end.reason() instanceof org.apache.spark.Success$)) {
        count.incrementAndGet();
      }
    }
  }

  @Test
  void completeOutputModeIsRefused() {
    Dataset<Row> counts =
        reader().load("//q").groupBy("payload").count().selectExpr("count as id", "payload");
    String m =
        failure(
            () ->
                runToEnd(writer(counts, "yt:///ckpt/bad-complete").outputMode("complete").start()));
    assertMentions(m, "outputMode(\"complete\")", "are not supported", "outputMode(\"append\")");
  }
}
