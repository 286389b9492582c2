package io.ytstream.benchmarks.latency;

import java.util.Arrays;
import java.util.List;

/** What one latency measurement runs: source, trigger and sink. */
enum Variant {
  RT_EXACTLY_ONCE("rt-exactly-once", "Real-time, yt source, YtExactlyOnceForeachWriter"),
  RT_APPEND("rt-append", "Real-time, yt source, YtAppendForeachWriter"),
  KAFKA_RT_APPEND(
      "kafka-rt-append",
      "Real-time, Spark's kafka source (value parsed by from_json), YtAppendForeachWriter"),
  MICRO_BATCH("micro-batch", "ProcessingTime(0), yt source, foreach(YtAppendForeachWriter)"),
  RT_APPEND_TWO_TASKS(
      "rt-append-2-tasks",
      "Real-time, yt source read by 2 tasks (real_time_partitions_per_task = partitions / 2),"
          + " YtAppendForeachWriter"),
  RT_HANDOFF(
      "rt-handoff",
      "Real-time, yt source, a writer that writes nothing and times each row as Spark hands it"
          + " over: the source's part alone"),
  KAFKA_RT_HANDOFF(
      "kafka-rt-handoff", "Real-time, Spark's kafka source (from_json), as rt-handoff"),
  FLOOR_APPEND(
      "floor-append",
      "Control, no source: rows stamped in Spark's JVM and handed straight to"
          + " YtAppendForeachWriter, one writer per partition, at the same rate and batches"),
  FLOOR_EXACTLY_ONCE(
      "floor-exactly-once", "Control, no source: as floor-append, with YtExactlyOnceForeachWriter"),
  RT_COUNT(
      "rt-count",
      "Real-time, yt source, groupBy(key).count() (Spark 4.3), each updated count upserted by"
          + " YtUpsertForeachWriter into a table sorted by key"),
  KAFKA_RT_COUNT(
      "kafka-rt-count",
      "Real-time, Spark's kafka source (from_json), the same aggregation and writer as rt-count");

  final String key;
  final String description;

  Variant(String key, String description) {
    this.key = key;
    this.description = description;
  }

  boolean realTime() {
    return this != MICRO_BATCH;
  }

  /** The control: the writer fed directly, no source or query ({@link WriterFloor}). */
  boolean floor() {
    return this == FLOOR_APPEND || this == FLOOR_EXACTLY_ONCE;
  }

  /** The control of this writer of ours: the same writer without the source; null for none. */
  Variant floorOf() {
    return switch (this) {
      case RT_APPEND,
          RT_APPEND_TWO_TASKS,
          MICRO_BATCH,
          FLOOR_APPEND,
          RT_HANDOFF,
          KAFKA_RT_HANDOFF ->
          FLOOR_APPEND;
      case RT_EXACTLY_ONCE, FLOOR_EXACTLY_ONCE -> FLOOR_EXACTLY_ONCE;
      case KAFKA_RT_APPEND -> FLOOR_APPEND;
      case RT_COUNT, KAFKA_RT_COUNT -> null;
    };
  }

  /** Reads a Kafka topic through Spark's own source instead of a YTsaurus queue. */
  boolean kafka() {
    return this == KAFKA_RT_APPEND || this == KAFKA_RT_HANDOFF || this == KAFKA_RT_COUNT;
  }

  /**
   * Counts rows per key ({@code groupBy(key).count()}, a pipelined shuffle into a stateful
   * operator), which Real-time Mode runs from Spark 4.3 on; each update upserted by key.
   */
  boolean stateful() {
    return this == RT_COUNT || this == KAFKA_RT_COUNT;
  }

  /** Spark's Kafka source doing the same work as this variant of ours: the bar it is held to. */
  Variant kafkaPeer() {
    return stateful() ? KAFKA_RT_COUNT : KAFKA_RT_APPEND;
  }

  /** The output table this variant's writer needs. */
  OutputTable output() {
    if (exactlyOnce()) {
      return OutputTable.BY_SOURCE_POSITION;
    }
    return stateful() ? OutputTable.BY_KEY : OutputTable.ORDERED;
  }

  /** Times rows as Spark hands them to the writer, which writes nothing ({@link HandoffWriter}). */
  boolean handoff() {
    return this == RT_HANDOFF || this == KAFKA_RT_HANDOFF;
  }

  /** Writes with {@code YtExactlyOnceForeachWriter} into a table sorted by source position. */
  boolean exactlyOnce() {
    return this == RT_EXACTLY_ONCE || this == FLOOR_EXACTLY_ONCE;
  }

  /**
   * The real-time tasks this variant runs over {@code partitions} queue partitions: one per
   * partition, but 2 for {@link #RT_APPEND_TWO_TASKS} (so {@code --partitions 8} compares 8
   * partitions in 8 tasks with 8 partitions on 2 slots).
   */
  int tasks(int partitions) {
    return this == RT_APPEND_TWO_TASKS ? Math.min(2, partitions) : partitions;
  }

  /** The {@code real_time_partitions_per_task} option this variant reads with. */
  int partitionsPerTask(int partitions) {
    int tasks = tasks(partitions);
    return (partitions + tasks - 1) / tasks;
  }

  /**
   * The variants a run measures unless {@code --variants} names others: all of them but {@link
   * #RT_APPEND_TWO_TASKS}, which only means something beside {@code rt-append} at several
   * partitions per task, the controls, which {@code run-all} names beside Kafka's, and the stateful
   * ones, which need Spark 4.3.
   */
  static List<Variant> standard() {
    return Arrays.stream(values())
        .filter(v -> v != RT_APPEND_TWO_TASKS && !v.floor() && !v.handoff() && !v.stateful())
        .toList();
  }

  static Variant parse(String key) {
    for (Variant v : values()) {
      if (v.key.equals(key)) {
        return v;
      }
    }
    throw new IllegalArgumentException(
        "option --variants takes "
            + Arrays.stream(values()).map(v -> v.key).toList()
            + ", got '"
            + key
            + "'");
  }
}
