package io.ytstream.benchmarks.latency;

import java.util.Arrays;

/** What one latency measurement runs: source, trigger and sink. */
enum Variant {
  RT_EXACTLY_ONCE("rt-exactly-once", "Real-time, yt source, YtExactlyOnceForeachWriter"),
  RT_APPEND("rt-append", "Real-time, yt source, YtAppendForeachWriter"),
  MICRO_BATCH("micro-batch", "ProcessingTime(0), yt source, foreach(YtAppendForeachWriter)"),
  BARE_RT("bare-rt", "Real-time, bare in-memory source (limit), YtAppendForeachWriter");

  final String key;
  final String description;

  Variant(String key, String description) {
    this.key = key;
    this.description = description;
  }

  boolean realTime() {
    return this != MICRO_BATCH;
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
