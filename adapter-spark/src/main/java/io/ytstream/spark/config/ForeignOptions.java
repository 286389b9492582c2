package io.ytstream.spark.config;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Options of other sources (Spark's Kafka source and sink, SPYT's static reads and writes) that
 * users carry over to {@code format("yt")}, each with what the {@code yt} source or sink takes
 * instead. Keys are lower case: Spark's option map is case-insensitive.
 */
final class ForeignOptions {

  private ForeignOptions() {}

  private static final Map<String, String> HINTS = new TreeMap<>();

  private static void ours(String theirs, String what, String ours) {
    HINTS.put(
        theirs.toLowerCase(Locale.ROOT),
        "is " + what + "; the yt source/sink's equivalent is option '" + ours + "'");
  }

  private static void hint(String theirs, String text) {
    HINTS.put(theirs.toLowerCase(Locale.ROOT), text);
  }

  /** An option whose yt counterpart differs from it in a way the user must know. */
  private static void near(String theirs, String what, String ours, String difference) {
    HINTS.put(
        theirs.toLowerCase(Locale.ROOT),
        "is "
            + what
            + "; the nearest option of the yt source/sink is '"
            + ours
            + "', which "
            + difference);
  }

  static {
    String kafka = "an option of Spark's Kafka source";
    ours("startingOffsets", kafka, YtOptions.STARTING_OFFSETS);
    ours("endingOffsets", kafka, YtOptions.ENDING_OFFSETS);
    ours("startingTimestamp", kafka, YtOptions.STARTING_TIMESTAMP);
    near(
        "startingOffsetsByTimestamp",
        kafka,
        YtOptions.STARTING_TIMESTAMP,
        "takes one time for every partition (per partition: starting_offsets with row indexes)");
    ours("endingTimestamp", kafka, YtOptions.ENDING_TIMESTAMP);
    near(
        "endingOffsetsByTimestamp",
        kafka,
        YtOptions.ENDING_TIMESTAMP,
        "takes one time for every partition (per partition: ending_offsets with row indexes)");
    ours("maxOffsetsPerTrigger", kafka, YtOptions.MAX_ROWS_PER_TRIGGER);
    ours("minOffsetsPerTrigger", kafka, YtOptions.MIN_ROWS_PER_TRIGGER);
    ours("maxTriggerDelay", kafka, YtOptions.MAX_TRIGGER_DELAY);
    ours("maxBytesPerTrigger", "an option of Spark's file source", YtOptions.MAX_BYTES_PER_TRIGGER);
    ours("failOnDataLoss", kafka, YtOptions.FAIL_ON_DATA_LOSS);
    // Kafka's cuts a batch's partition range into tasks of at most that many records; the yt
    // option with the similar name, max_rows_per_partition, caps the rows of a batch instead.
    ours("maxRecordsPerPartition", kafka, YtOptions.MAX_ROWS_PER_TASK);
    ours("minPartitions", kafka, YtOptions.MIN_TASKS);
    near(
        "includeHeaders",
        kafka,
        YtOptions.INCLUDE_SERVICE_COLUMNS,
        "adds each row's queue position (tablet and row index, as Kafka's partition and offset"
            + " columns); queue rows have no headers");
    near(
        "groupIdPrefix",
        kafka,
        YtOptions.CONSUMER_PATH,
        "names the consumer table whose offsets the query advances after each batch (Kafka's"
            + " source commits no offsets to its group)");
    near(
        "kafka.group.id",
        kafka,
        YtOptions.CONSUMER_PATH,
        "names the consumer table whose offsets the query advances after each batch (Kafka's"
            + " source commits no offsets to its group)");
    ours("topic", "an option of Spark's Kafka sink", YtOptions.PATH);
    String queues =
        "is an option of Spark's Kafka source; the yt source takes the queue path(s) in load(),"
            + " e.g. load(\"//home/q\") or load(\"//home/q1,//home/q2\")";
    hint("subscribe", queues);
    hint("subscribePattern", queues);
    hint("assign", queues);
    hint(
        "kafka.bootstrap.servers",
        "is an option of Spark's Kafka source; the yt source/sink's cluster is the session setting"
            + " spark.hadoop.yt.proxy or option '"
            + YtOptions.PROXY
            + "'");
    String spyt = "is a session setting of SPYT, not an option: set it with spark.conf.set(\"";
    hint("dynBatchSize", spyt + YtSettings.DYN_BATCH_SIZE + "\", ...)");
    hint("transactional", spyt + YtSettings.TRANSACTIONAL + "\", \"true\")");
    String create =
        "is an option of SPYT's static write, which creates the table; the yt sink writes a"
            + " table that exists (create and mount it first, e.g. yt create table ...)";
    hint("sort_columns", create);
    hint("unique_keys", create);
    hint("optimize_for", create);
  }

  /**
   * What to use instead of {@code name}, if it is another source's option: Kafka client settings
   * ({@code kafka.*}) and Spark settings given as options ({@code spark.*}) included.
   */
  static Optional<String> hintFor(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    String known = HINTS.get(lower);
    if (known != null) {
      return Optional.of(known);
    }
    if (lower.startsWith("kafka.")) {
      return Optional.of(
          "is a Kafka client setting; the yt source/sink talks to a YTsaurus HTTP proxy, whose"
              + " connection settings are the session settings spark.hadoop.yt.*");
    }
    if (lower.startsWith("spark.")) {
      return Optional.of(
          "is a Spark setting, not an option of the yt source/sink: set it on the session, e.g."
              + " spark.conf.set(\""
              + name
              + "\", ...) or --conf "
              + name
              + "=...");
    }
    return Optional.empty();
  }
}
