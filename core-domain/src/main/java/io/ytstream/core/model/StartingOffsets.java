package io.ytstream.core.model;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a query with neither a checkpoint nor a consumer position starts, as Kafka's {@code
 * startingOffsets} says it: {@code earliest} (each partition's first row still in the queue),
 * {@code latest} (its end: only rows that arrive later), or per partition as JSON, {@code
 * {"//home/q": {"0": 42, "1": -2}}}, where {@value #EARLIEST} means earliest and {@value #LATEST}
 * latest; or, from option {@code starting_timestamp}, the first row committed at or after a time
 * ({@link AtTimestamp}). A static read's end ({@code ending_offsets}, exclusive) has the same
 * forms. The option's text form is read outside the core ({@code StartingOffsetsText} in {@code
 * application}).
 */
public sealed interface StartingOffsets {

  /** In the JSON form: the partition's first row. */
  long EARLIEST = -2;

  /** In the JSON form: the partition's end. */
  long LATEST = -1;

  /** Each partition's first row. */
  record Earliest() implements StartingOffsets {}

  /** Each partition's end. */
  record Latest() implements StartingOffsets {}

  /** Offsets per queue path and partition index ({@link #EARLIEST}, {@link #LATEST} allowed). */
  record Specific(Map<YPath, Map<Integer, Long>> offsets) implements StartingOffsets {
    public Specific {
      // Sorted all the way down: errors name the first bad entry, the same one every time.
      TreeMap<YPath, Map<Integer, Long>> copy = new TreeMap<>();
      offsets.forEach((q, p) -> copy.put(q, Collections.unmodifiableSortedMap(new TreeMap<>(p))));
      offsets = Collections.unmodifiableSortedMap(copy);
    }
  }

  /**
   * Each partition's first row whose {@code $timestamp} is at or after {@code epochMillis}
   * (milliseconds since the epoch, compared at the server's one-second resolution: {@link
   * YtTimestamps#lowestAtEpochMillis}), or its end when there is none. Finding those rows takes
   * reads, so this is turned into {@link Specific} offsets before the resolver sees it.
   */
  record AtTimestamp(long epochMillis) implements StartingOffsets {
    public AtTimestamp {
      YtTimestamps.lowestAtEpochMillis(epochMillis);
    }
  }
}
