package io.ytstream.simulation;

import java.util.Locale;

/** The delivery mode a simulation runs, by its command-line name. */
public enum SimMode implements RunMode {
  /** One tablet transaction per batch holds the output and the consumer advance. */
  TRANSACTIONAL(true),
  /** Upserts keyed by source position into a sorted table. */
  IDEMPOTENT(true),
  /** Chunks of output, each its own transaction; duplicates are counted. */
  AT_LEAST_ONCE(false),
  /**
   * Pushes into an output queue through queue producer sessions, which the server deduplicates by
   * sequence number; the consumer advances as in at-least-once.
   */
  PRODUCER(true),
  /**
   * Appends into a static table, each batch in one master transaction that also records the batch
   * on the table; the consumer advances as in at-least-once.
   */
  STATIC_TABLE(true);

  private final boolean exactlyOnce;

  SimMode(boolean exactlyOnce) {
    this.exactlyOnce = exactlyOnce;
  }

  @Override
  public boolean exactlyOnce() {
    return exactlyOnce;
  }

  /**
   * {@code transactional}, {@code idempotent}, {@code at-least-once}, {@code producer} or {@code
   * static-table}.
   */
  @Override
  public String cliName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public static SimMode parse(String name) {
    for (SimMode m : values()) {
      if (m.cliName().equals(name)) {
        return m;
      }
    }
    throw new IllegalArgumentException(
        "unknown mode '"
            + name
            + "': use transactional, idempotent, at-least-once, producer or static-table");
  }
}
