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
  MICRO_BATCH("micro-batch", "ProcessingTime(0), yt source, foreach(YtAppendForeachWriter)");

  final String key;
  final String description;

  Variant(String key, String description) {
    this.key = key;
    this.description = description;
  }

  boolean realTime() {
    return this != MICRO_BATCH;
  }

  /** Reads a Kafka topic through Spark's own source instead of a YTsaurus queue. */
  boolean kafka() {
    return this == KAFKA_RT_APPEND;
  }

  /** Writes with {@code YtExactlyOnceForeachWriter} into a table sorted by source position. */
  boolean exactlyOnce() {
    return this == RT_EXACTLY_ONCE;
  }

  /** The variants a run measures unless {@code --variants} names others: all of them. */
  static List<Variant> standard() {
    return List.of(values());
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
