package io.ytstream.application.offsets;

import io.ytstream.core.model.StartingOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.types.json.JsonReader;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The text form of {@link StartingOffsets}, as options {@code starting_offsets} and {@code
 * ending_offsets} take it: {@code earliest}, {@code latest}, or JSON per queue path and partition,
 * {@code {"//home/q": {"0": 42, "1": -2}}}, where {@value StartingOffsets#EARLIEST} means earliest
 * and {@value StartingOffsets#LATEST} latest.
 */
public final class StartingOffsetsText {

  private StartingOffsetsText() {}

  /**
   * Parses {@code earliest}, {@code latest} or the JSON form.
   *
   * @throws IllegalArgumentException saying what is wrong and what the value should look like
   */
  public static StartingOffsets parse(String text) {
    String trimmed = text.trim();
    String lower = trimmed.toLowerCase(Locale.ROOT);
    if (lower.equals("earliest")) {
      return new StartingOffsets.Earliest();
    }
    if (lower.equals("latest")) {
      return new StartingOffsets.Latest();
    }
    String shape =
        "earliest, latest, or JSON per queue and partition such as {\"//home/q\": {\"0\": 42, \"1\":"
            + " -2}} (-2: earliest, -1: latest)";
    Object root;
    try {
      root = JsonReader.read(trimmed);
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
        if (!(p.getValue() instanceof Long offset) || offset < StartingOffsets.EARLIEST) {
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
    return new StartingOffsets.Specific(out);
  }
}
