package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.inmemory.ClusterOperation;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamReader;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Every option the yt source or sink does not know is an error that names it and says what to use
 * (the yt name of a Kafka or SPYT option, or the known name it is close to); values out of range
 * name the option, the value and the fix. Each case reads no row and writes nothing.
 */
class OptionsTest {

  /** Pass-through placeholders per operation: each call of the operation uses one up. */
  private static final int PLACEHOLDERS = 1_000_000;

  private final SparkSession spark = SharedSpark.get();
  private TestCluster c;
  private int ckpt;

  /**
   * How many queries may have started: each checks its source with a pull of one row, before the
   * sink.
   */
  private int probes;

  private final List<String> checkpoints = new java.util.ArrayList<>();

  @BeforeEach
  void cluster() {
    c = TestCluster.create(spark, "opts");
    c.queue("//q", 2).consumer("//c", "//q").orderedTable("//out", 1);
    c.produce("//q", 0, 0, 8);
    c.produce("//q", 1, 100, 108);
    countFromHere();
  }

  /** Counts calls from now on; a write test starts after load(), whose source check pulls a row. */
  private void countFromHere() {
    c.cluster.faults().clearPending();
    c.cluster.faults().skipNext(ClusterOperation.PULL, PLACEHOLDERS);
    c.cluster.faults().skipNext(ClusterOperation.OUTPUT_APPEND, PLACEHOLDERS);
    c.cluster.faults().skipNext(ClusterOperation.ADVANCE, PLACEHOLDERS);
  }

  @AfterEach
  void nothingReadOrWritten() {
    assertTrue(
        calls(ClusterOperation.PULL) <= probes,
        "no row was read but the source's one-row check of mount and registration at start");
    for (String checkpoint : checkpoints) {
      assertTrue(
          c.cluster
              .checkpoints()
              .status(io.ytstream.core.model.YPath.of(checkpoint + "/offsets/0"))
              .isEmpty(),
          "no batch was planned in " + checkpoint);
    }
    assertEquals(0, calls(ClusterOperation.OUTPUT_APPEND), "no row was written");
    assertEquals(0, calls(ClusterOperation.ADVANCE), "the consumer did not move");
    assertEquals(List.of(), c.rows("//out"));
    assertEquals(0, c.consumerTotal("//c", "//q"));
    c.cluster.faults().clearPending();
  }

  private int calls(ClusterOperation op) {
    return PLACEHOLDERS - c.cluster.faults().pendingCount(op);
  }

  private DataStreamReader reader() {
    return spark.readStream().format("yt").option("consumer_path", "//c");
  }

  /** Starts a query with the writer's extra options and runs it to its end. */
  private void write(Dataset<Row> df, Map<String, String> options) throws Exception {
    write(df, options, true);
  }

  /**
   * @param beforeAnyBatch whether the refusal comes before Spark logs a first batch's offsets
   */
  private void write(Dataset<Row> df, Map<String, String> options, boolean beforeAnyBatch)
      throws Exception {
    String checkpoint = "//ckpt/opts-" + c.name + "-" + ckpt++;
    if (beforeAnyBatch) {
      checkpoints.add(checkpoint);
    }
    probes++;
    StreamingQuery q =
        df.writeStream()
            .format("yt")
            .option("path", "//out")
            .option("checkpointLocation", "yt://" + checkpoint)
            .options(options)
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
  void kafkaSourceOptionsNameTheirYtEquivalent() {
    Map<String, String> kafkaToYt =
        Map.of(
            "startingOffsets", "starting_offsets",
            "endingOffsets", "ending_offsets",
            "maxOffsetsPerTrigger", "max_rows_per_trigger",
            "minOffsetsPerTrigger", "min_rows_per_trigger",
            "maxTriggerDelay", "max_trigger_delay",
            "failOnDataLoss", "fail_on_data_loss",
            "startingTimestamp", "starting_timestamp",
            "minPartitions", "min_tasks",
            "maxRecordsPerPartition", "max_rows_per_task");
    kafkaToYt.forEach(
        (kafka, yt) -> {
          String m = failure(() -> reader().option(kafka, "1").load("//q"));
          assertMentions(
              m,
              "option '" + kafka + "' is an option of Spark's Kafka source",
              "the yt source/sink's equivalent is option '" + yt + "'");
        });
    assertMentions(
        failure(() -> reader().option("maxBytesPerTrigger", "1000").load("//q")),
        "option 'maxBytesPerTrigger' is an option of Spark's file source",
        "the yt source/sink's equivalent is option 'max_bytes_per_trigger'");
  }

  @Test
  void kafkaOptionsWithoutAnExactEquivalentSayHowTheNearestDiffers() {
    assertMentions(
        failure(() -> reader().option("kafka.group.id", "g").load("//q")),
        "the nearest option of the yt source/sink is 'consumer_path'",
        "whose offsets the query advances",
        "commits no offsets to its group");
    assertMentions(
        failure(() -> reader().option("includeHeaders", "true").load("//q")),
        "the nearest option of the yt source/sink is 'include_service_columns'",
        "queue rows have no headers");
    assertMentions(
        failure(() -> reader().option("startingOffsetsByTimestamp", "{}").load("//q")),
        "'starting_timestamp', which takes one time for every partition");
  }

  @Test
  void kafkaWaysToNameTheQueueAndTheClusterPointToLoadAndTheProxy() {
    String m = failure(() -> reader().option("subscribe", "events").load("//q"));
    assertMentions(m, "option 'subscribe'", "takes the queue path(s) in load()");
    m = failure(() -> reader().option("kafka.bootstrap.servers", "host:9092").load("//q"));
    assertMentions(m, "option 'kafka.bootstrap.servers'", "spark.hadoop.yt.proxy", "'proxy'");
    m = failure(() -> reader().option("kafka.request.timeout.ms", "10").load("//q"));
    assertMentions(m, "is a Kafka client setting", "spark.hadoop.yt.*");
  }

  @Test
  void spytAndSparkSettingsGivenAsOptionsPointToTheSession() {
    String m = failure(() -> reader().option("transactional", "true").load("//q"));
    assertMentions(m, "session setting of SPYT", "spark.yt.streaming.transactional");
    m = failure(() -> reader().option("spark.yt.write.dynBatchSize", "10").load("//q"));
    assertMentions(m, "is a Spark setting, not an option", "spark.conf.set(");
  }

  @Test
  void nearMissesGetDidYouMean() {
    String m = failure(() -> reader().option("max_rows_per_triger", "10").load("//q"));
    assertMentions(
        m, "unknown option 'max_rows_per_triger'", "did you mean 'max_rows_per_trigger'?");
    m = failure(() -> reader().option("MaxRowsPerPartition", "10").load("//q"));
    assertMentions(m, "did you mean 'max_rows_per_partition'?");
  }

  @Test
  void anOptionFarFromEveryKnownNameIsRefusedToo() {
    String m = failure(() -> reader().option("colour", "blue").load("//q"));
    assertMentions(
        m, "unknown option 'colour' of the yt source/sink", "remove it", "consumer_path");
  }

  @Test
  void aSinkOptionOnAReadAndAReadOptionOnAWriteAreRefused() {
    String m = failure(() -> reader().option("write_type_v3", "true").load("//q"));
    assertMentions(m, "option 'write_type_v3' applies to writes (the yt sink), not to reads");
    Dataset<Row> df = reader().load("//q");
    countFromHere();
    // Spark asks for the sink's writer when it plans the first batch: offsets/0 is logged, but no
    // task runs, so no row is read or written and the consumer stays.
    m = failure(() -> write(df, Map.of("consumer_path", "//c"), false));
    assertMentions(m, "option 'consumer_path' applies to reads (the yt source), not to writes");
  }

  @Test
  void anEmptyStartEndOrProducerIsRefusedRatherThanTakenAsNotGiven() throws Exception {
    for (String option : List.of("starting_offsets", "starting_timestamp")) {
      String m = failure(() -> reader().option(option, " ").load("//q"));
      assertMentions(m, "option '" + option + "' is empty", "remove the option");
    }
    for (String option : List.of("ending_offsets", "ending_timestamp")) {
      String m = failure(() -> spark.read().format("yt").option(option, "").load("//q"));
      assertMentions(m, "option '" + option + "' is empty", "remove the option");
    }
    Dataset<Row> df = reader().load("//q");
    countFromHere();
    String m = failure(() -> write(df, Map.of("producer_path", ""), false));
    assertMentions(m, "option 'producer_path' is empty", "remove the option");
  }

  @Test
  void theSinkRefusesUnknownOptionsNamingTheKafkaEquivalent() {
    Dataset<Row> df = reader().load("//q");
    countFromHere();
    String m = failure(() -> write(df, Map.of("topic", "out")));
    assertMentions(m, "option 'topic' is an option of Spark's Kafka sink", "option 'path'");
    m = failure(() -> write(df, Map.of("patth", "//out")));
    assertMentions(m, "unknown option 'patth'", "did you mean 'path'?");
  }

  @Test
  void triggerSizesOutOfRangeNameTheOptionTheValueAndTheFix() {
    for (String option : List.of("max_rows_per_trigger", "min_rows_per_trigger")) {
      for (String bad : List.of("0", "-1", "many")) {
        String m =
            failure(
                () ->
                    reader()
                        .option(option, bad)
                        .option("max_trigger_delay", "1m")
                        .option("min_rows_per_trigger", option.startsWith("min") ? bad : "1")
                        .load("//q"));
        assertMentions(
            m, "option " + option + " must be a whole number >= 1, got '" + bad + "'", "Set it");
      }
    }
    String m =
        failure(
            () ->
                reader()
                    .option("max_rows_per_trigger", "10")
                    .option("min_rows_per_trigger", "11")
                    .load("//q"));
    assertMentions(
        m, "min_rows_per_trigger = 11 exceeds max_rows_per_trigger = 10", "Lower min_rows");
    m =
        failure(
            () ->
                reader()
                    .option("min_rows_per_trigger", "5")
                    .option("max_trigger_delay", "soon")
                    .load("//q"));
    assertMentions(m, "option max_trigger_delay must be a positive duration", "got 'soon'");
    m = failure(() -> reader().option("max_trigger_delay", "5m").load("//q"));
    assertMentions(m, "max_trigger_delay = '5m' has no effect without min_rows_per_trigger");
    for (String option : List.of("max_bytes_per_trigger", "max_bytes_per_partition")) {
      for (String bad : List.of("0", "-1", "64m")) {
        m = failure(() -> reader().option(option, bad).load("//q"));
        assertMentions(
            m,
            "option " + option + " must be a whole number >= 1, got '" + bad + "'",
            "Set it to the most bytes of data weight");
      }
    }
  }
}
