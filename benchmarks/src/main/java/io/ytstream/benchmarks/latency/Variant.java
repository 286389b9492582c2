package io.ytstream.benchmarks.latency;

import java.util.Arrays;
import java.util.List;

/** What one latency measurement runs: source, trigger and sink. */
enum Variant {
  RT_EXACTLY_ONCE("rt-exactly-once", "Real-time, yt source, YtExactlyOnceForeachWriter"),
  RT_APPEND("rt-append", "Real-time, yt source, YtAppendForeachWriter"),
  MICRO_BATCH("micro-batch", "ProcessingTime(0), yt source, foreach(YtAppendForeachWriter)"),
  BARE_RT("bare-rt", "Real-time, bare in-memory source (limit), YtAppendForeachWriter"),
  BARE_RT_EXACTLY_ONCE(
      "bare-rt-exactly-once",
      "Real-time, bare in-memory source (limit), YtExactlyOnceForeachWriter"),
  BARE_RT_CONTROL(
      "bare-rt-control",
      "Real-time, bare in-memory source run as a variant of its own, YtAppendForeachWriter"
          + " (control: the limit against itself)");

  final String key;
  final String description;

  Variant(String key, String description) {
    this.key = key;
    this.description = description;
  }

  boolean realTime() {
    return this != MICRO_BATCH;
  }

  /** Reads the bare in-memory source ({@link PacedSource}) instead of a queue. */
  boolean bare() {
    return this == BARE_RT || this == BARE_RT_EXACTLY_ONCE || this == BARE_RT_CONTROL;
  }

  /**
   * The variants a run measures unless {@code --variants} names others: all but the control, which
   * answers another question (how far a ratio moves when nothing differs) at the cost of a sixth
   * run per round.
   */
  static List<Variant> standard() {
    return Arrays.stream(values()).filter(v -> v != BARE_RT_CONTROL).toList();
  }

  /** Writes with {@code YtExactlyOnceForeachWriter} into a table sorted by source position. */
  boolean exactlyOnce() {
    return this == RT_EXACTLY_ONCE || this == BARE_RT_EXACTLY_ONCE;
  }

  /**
   * The limit a variant of ours is held against: the bare source with the same writer, as the issue
   * asks ("with the same foreach sink"), so that a ratio measures the source and not the sink. The
   * control's limit is {@link #BARE_RT}, the same source and writer.
   */
  Variant limit() {
    return exactlyOnce() ? BARE_RT_EXACTLY_ONCE : BARE_RT;
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
