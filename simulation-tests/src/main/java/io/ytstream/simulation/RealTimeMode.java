package io.ytstream.simulation;

import java.util.Locale;

/**
 * Real-time Mode's simulated queries, by the {@code ForeachWriter} they write through (Spark's
 * Real-time Mode takes the foreach sink, not the {@code yt} sink), by command-line name.
 */
public enum RealTimeMode implements RunMode {
  /**
   * {@code YtExactlyOnceForeachWriter}: upserts keyed by source position into a sorted table,
   * through {@code WriteChunk}; a replay overwrites the same keys.
   */
  UPSERT(true),
  /**
   * {@code YtAppendForeachWriter}: appends to an ordered table of 1–3 tablets through {@code
   * WriteChunk}, row k of task p into tablet {@code (p + k) mod tablets}; a replay writes again.
   */
  APPEND(false),
  /**
   * {@code YtProducerForeachWriter}: pushes into an output queue through producer sessions, one per
   * source partition, numbered by source row index ({@code PushRowsBySourcePosition}).
   */
  PRODUCER(true);

  private final boolean exactlyOnce;

  RealTimeMode(boolean exactlyOnce) {
    this.exactlyOnce = exactlyOnce;
  }

  /** Whether the writer promises each source row once (else at least once). */
  @Override
  public boolean exactlyOnce() {
    return exactlyOnce;
  }

  /** {@code realtime-upsert}, {@code realtime-append} or {@code realtime-producer}. */
  @Override
  public String cliName() {
    return "realtime-" + name().toLowerCase(Locale.ROOT);
  }

  public static boolean isRealTime(String name) {
    return name != null && name.startsWith("realtime-");
  }

  public static RealTimeMode parse(String name) {
    for (RealTimeMode m : values()) {
      if (m.cliName().equals(name)) {
        return m;
      }
    }
    throw new IllegalArgumentException(
        "unknown mode '"
            + name
            + "': use realtime-upsert, realtime-append or realtime-producer (or a micro-batch"
            + " mode)");
  }
}
