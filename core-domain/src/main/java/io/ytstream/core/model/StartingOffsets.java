package io.ytstream.core.model;

import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a query with neither a checkpoint nor a consumer position starts, as Kafka's {@code
 * startingOffsets} says it: {@code earliest} (each partition's first row still in the queue),
 * {@code latest} (its end: only rows that arrive later), or per partition as JSON, {@code
 * {"//home/q": {"0": 42, "1": -2}}}, where {@value #EARLIEST} means earliest and {@value #LATEST}
 * latest; or, from option {@code starting_timestamp}, the first row committed at or after a time
 * ({@link AtTimestamp}). A static read's end ({@code ending_offsets}, exclusive) has the same
 * forms.
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

  /**
   * Parses {@code earliest}, {@code latest} or the JSON form.
   *
   * @throws IllegalArgumentException saying what is wrong and what the value should look like
   */
  static StartingOffsets parse(String text) {
    String trimmed = text.trim();
    String lower = trimmed.toLowerCase(Locale.ROOT);
    if (lower.equals("earliest")) {
      return new Earliest();
    }
    if (lower.equals("latest")) {
      return new Latest();
    }
    String shape =
        "earliest, latest, or JSON per queue and partition such as {\"//home/q\": {\"0\": 42, \"1\":"
            + " -2}} (-2: earliest, -1: latest)";
    Object root;
    try {
      root = new JsonText(trimmed).readDocument();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + text + "' is not " + shape + ": " + e.getMessage());
    }
    if (!(root instanceof Map<?, ?> queues) || queues.isEmpty()) {
      throw new IllegalArgumentException("'" + text + "' is not " + shape);
    }
    TreeMap<YPath, Map<Integer, Long>> out = new TreeMap<>();
    for (Map.Entry<?, ?> q : queues.entrySet()) {
      YPath path;
      try {
        path = YPath.of((String) q.getKey());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "'" + q.getKey() + "' in '" + text + "' is not a queue path: " + e.getMessage());
      }
      if (!(q.getValue() instanceof Map<?, ?> partitions)) {
        throw new IllegalArgumentException(
            "the offsets of " + path + " in '" + text + "' must be an object: " + shape);
      }
      TreeMap<Integer, Long> byIndex = new TreeMap<>();
      for (Map.Entry<?, ?> p : partitions.entrySet()) {
        int index;
        try {
          index = Integer.parseInt((String) p.getKey());
        } catch (NumberFormatException e) {
          index = -1;
        }
        if (index < 0) {
          throw new IllegalArgumentException(
              "'" + p.getKey() + "' of " + path + " is not a partition index >= 0: " + shape);
        }
        if (!(p.getValue() instanceof Long offset) || offset < EARLIEST) {
          throw new IllegalArgumentException(
              "the offset of "
                  + path
                  + " partition "
                  + index
                  + " must be a row index >= 0, -2 (earliest) or -1 (latest), got "
                  + p.getValue());
        }
        byIndex.put(index, offset);
      }
      out.put(path, byIndex);
    }
    return new Specific(out);
  }
}
