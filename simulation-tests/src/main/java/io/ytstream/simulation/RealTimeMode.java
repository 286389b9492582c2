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
  PRODUCER(true),
  /**
   * {@code YtUpsertForeachWriter} behind the stateful query {@code groupBy(k).count()} in update
   * mode ({@link StatefulCount}): each key's count upserted by key into a sorted table.
   */
  STATEFUL(true);

  private final boolean exactlyOnce;

  RealTimeMode(boolean exactlyOnce) {
    this.exactlyOnce = exactlyOnce;
  }

  /** Whether the writer promises each source row once (else at least once). */
  @Override
  public boolean exactlyOnce() {
    return exactlyOnce;
  }

  /** {@code realtime-upsert}, {@code realtime-append}, {@code realtime-producer}, ... */
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
            + "': use realtime-upsert, realtime-append, realtime-producer or realtime-stateful"
            + " (or a micro-batch mode)");
  }
}
