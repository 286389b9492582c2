package io.ytstream.benchmarks.latency;

/** The output table a variant's writer writes into. */
enum OutputTable {
  /** Ordered, the queue's columns {@code (id, sent_us)}: the append writer's. */
  ORDERED("ordered"),
  /** Sorted by the source position, then {@code (id, sent_us)}: the exactly-once writer's. */
  BY_SOURCE_POSITION("sorted"),
  /**
   * Sorted by {@code key}, then {@code (count, sent_us)}: the upsert writer's, one row per key of
   * {@code groupBy(key).count()}; {@code sent_us} is the latest send time counted in the row.
   */
  BY_KEY("by-key");

  /** The word naming it in {@link StoreMain}'s {@code output} command. */
  final String word;

  OutputTable(String word) {
    this.word = word;
  }

  static OutputTable ofWord(String word) {
    for (OutputTable t : values()) {
      if (t.word.equals(word)) {
        return t;
      }
    }
    throw new IllegalArgumentException("unknown output table kind '" + word + "'");
  }
}
