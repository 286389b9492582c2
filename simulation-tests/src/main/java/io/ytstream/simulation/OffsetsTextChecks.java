package io.ytstream.simulation;

import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Part of {@code CHECKPOINT_CODEC}: seed-drawn offsets (many queues, sparse and large partition
 * indices, offsets up to {@link Long#MAX_VALUE}, queue paths with characters JSON escapes) are read
 * back from their text to the same offsets and written again to the same text; the same offsets
 * written another valid way (white space, another key order, escapes) read the same; and a text
 * with one defect (another version, a negative, fractional or overflowing number, a bad partition
 * key, a repeated key, an unknown field, trailing bytes, a cut) is refused, never read as other
 * offsets.
 */
final class OffsetsTextChecks {

  private static final String[] CLUSTERS = {"primary", "hume", "a", "zeno-2"};
  private static final String[] PATH_PARTS = {
    "q", "queue0", "queue10", "x\"y", "back\\slash", "caf\u00e9", "{brace}", "a:b", "\u4e2d"
  };
  private static final long[] OFFSETS = {
    0, 1, 9, 10, 42, 999_999_999_999_999_999L, 1_000_000_000_000_000_000L, Long.MAX_VALUE
  };
  private static final int[] INDICES = {0, 1, 2, 9, 10, 11, 99, 100, 1000, Integer.MAX_VALUE};

  /** Defects of one number (an offset or the version); each makes the text refused. */
  private static final String[] BAD_NUMBERS = {
    "-1",
    "1.5",
    "1e3",
    "07",
    "9223372036854775808",
    "99999999999999999999",
    "\"5\"",
    "null",
    "true",
    "{}",
    "[]",
    "1.0",
    "+1",
    "-"
  };

  private static final String[] BAD_INDICES = {
    "-1", "01", "+1", "2147483648", "a", "", " 1", "1.0", "1e1"
  };

  private final SplittableRandom random;
  private final Consumer<String> violate;

  private OffsetsTextChecks(SplittableRandom random, Consumer<String> violate) {
    this.random = random;
    this.violate = violate;
  }

  static void check(SplittableRandom random, Consumer<String> violate) {
    OffsetsTextChecks checks = new OffsetsTextChecks(random, violate);
    for (int i = 0; i < 4; i++) {
      checks.checkOne(checks.draw());
    }
  }

  /** Seed-drawn offsets: 0-6 queues of 1-5 partitions. */
  StreamOffsets draw() {
    TreeMap<PartitionId, Long> map = new TreeMap<>();
    int queues = random.nextInt(7);
    for (int q = 0; q < queues; q++) {
      String path = "//sim";
      int depth = 1 + random.nextInt(2);
      for (int d = 0; d < depth; d++) {
        path += "/" + PATH_PARTS[random.nextInt(PATH_PARTS.length)];
      }
      QueueId queue = QueueId.of(CLUSTERS[random.nextInt(CLUSTERS.length)], path);
      int partitions = 1 + random.nextInt(5);
      for (int p = 0; p < partitions; p++) {
        int index =
            random.nextInt(3) == 0
                ? INDICES[random.nextInt(INDICES.length)]
                : random.nextInt(random.nextBoolean() ? 12 : Integer.MAX_VALUE);
        long offset =
            random.nextInt(3) == 0
                ? OFFSETS[random.nextInt(OFFSETS.length)]
                : random.nextLong(random.nextBoolean() ? 1000 : Long.MAX_VALUE);
        map.put(new PartitionId(queue, index), offset);
      }
    }
    return StreamOffsets.of(map);
  }

  private void checkOne(StreamOffsets offsets) {
    String text = OffsetsJson.write(offsets);
    expectRead("as written", text, offsets);
    try {
      String again = OffsetsJson.write(OffsetsJson.parse(text));
      if (!again.equals(text)) {
        violate.accept("offsets text " + text + " is written again as " + again);
      }
    } catch (RuntimeException e) {
      return; // reported above
    }
    Map<QueueId, TreeMap<Integer, String>> tree = tree(offsets);
    // The same offsets, written another valid way.
    expectRead("spaced", render(tree, Style.SPACED, null), offsets);
    expectRead("reordered", render(tree, Style.REORDERED, null), offsets);
    expectRead("escaped", render(tree, Style.ESCAPED, null), offsets);
    expectRead("version last", render(tree, Style.VERSION_LAST, null), offsets);
    // One defect each.
    String bad = BAD_NUMBERS[random.nextInt(BAD_NUMBERS.length)];
    expectRefused("version " + bad, render(tree, Style.PLAIN, "version=" + bad));
    String version = new String[] {"0", "2", "10", "-1"}[random.nextInt(4)];
    expectRefused("version " + version, render(tree, Style.PLAIN, "version=" + version));
    expectRefused("no version", render(tree, Style.PLAIN, "version="));
    expectRefused("unknown field", render(tree, Style.PLAIN, "extra"));
    expectRefused("queues not an object", render(tree, Style.PLAIN, "queues=[]"));
    String tail = new String[] {"x", ",", "}", "{}", "0"}[random.nextInt(5)];
    expectRefused("trailing " + tail, text + tail);
    int cut = random.nextInt(text.length());
    expectRefused("cut after " + cut, text.substring(0, cut));
    if (!tree.isEmpty()) {
      expectRefused("offset " + bad, render(tree, Style.PLAIN, "offset=" + bad));
      String index = BAD_INDICES[random.nextInt(BAD_INDICES.length)];
      expectRefused("partition key '" + index + "'", render(tree, Style.PLAIN, "index=" + index));
      expectRefused("partition twice", render(tree, Style.PLAIN, "repeat-partition"));
      expectRefused("queue twice", render(tree, Style.PLAIN, "repeat-queue"));
      expectRefused("queue offsets not an object", render(tree, Style.PLAIN, "queue=5"));
      String key = new String[] {"nocolon", ":x", "primary:relative"}[random.nextInt(3)];
      expectRefused("queue key " + key, render(tree, Style.PLAIN, "key=" + key));
    }
  }

  private void expectRead(String how, String text, StreamOffsets expected) {
    try {
      StreamOffsets read = OffsetsJson.parse(text);
      if (!read.equals(expected)) {
        violate.accept("offsets text (" + how + ") " + text + " read as " + read);
      }
    } catch (RuntimeException e) {
      violate.accept("offsets text (" + how + ") " + text + " refused: " + e);
    }
  }

  private void expectRefused(String how, String text) {
    try {
      StreamOffsets read = OffsetsJson.parse(text);
      violate.accept("offsets text with " + how + " " + text + " read as " + read);
    } catch (IllegalArgumentException e) {
      if (e.getMessage() == null || e.getMessage().isBlank()) {
        violate.accept("offsets text with " + how + " refused without a reason");
      }
    } catch (RuntimeException e) {
      violate.accept("offsets text with " + how + " " + text + " failed with " + e);
    }
  }

  private static Map<QueueId, TreeMap<Integer, String>> tree(StreamOffsets offsets) {
    Map<QueueId, TreeMap<Integer, String>> tree = new TreeMap<>();
    offsets
        .asMap()
        .forEach(
            (p, o) -> tree.computeIfAbsent(p.queue(), q -> new TreeMap<>()).put(p.index(), "" + o));
    return tree;
  }

  private enum Style {
    PLAIN,
    SPACED,
    REORDERED,
    ESCAPED,
    VERSION_LAST
  }

  /** The offsets as JSON in {@code style}, with the one {@code defect} (null: none). */
  private String render(Map<QueueId, TreeMap<Integer, String>> tree, Style style, String defect) {
    StringBuilder out = new StringBuilder();
    String versionText = "1";
    if (defect != null && defect.startsWith("version=")) {
      versionText = defect.substring(8);
    }
    String version = versionText.isEmpty() ? null : "\"version\"" + ws(style) + ":" + versionText;
    out.append('{').append(ws(style));
    if (style != Style.VERSION_LAST && version != null) {
      out.append(version).append(',').append(ws(style));
    }
    if ("extra".equals(defect)) {
      out.append("\"extra\":1,");
    }
    out.append("\"queues\"").append(ws(style)).append(':').append(ws(style));
    if ("queues=[]".equals(defect)) {
      out.append("[]");
    } else {
      List<QueueId> queues = new ArrayList<>(tree.keySet());
      if (style == Style.REORDERED) {
        Collections.reverse(queues);
      }
      if ("repeat-queue".equals(defect)) {
        queues.add(queues.get(0));
      }
      out.append('{');
      for (int q = 0; q < queues.size(); q++) {
        QueueId queue = queues.get(q);
        if (q > 0) {
          out.append(',').append(ws(style));
        }
        String key =
            q == 0 && defect != null && defect.startsWith("key=")
                ? defect.substring(4)
                : queue.key();
        out.append(string(key, style == Style.ESCAPED)).append(ws(style)).append(':');
        if (q == 0 && "queue=5".equals(defect)) {
          out.append('5');
          continue;
        }
        List<Map.Entry<Integer, String>> parts = new ArrayList<>(tree.get(queue).entrySet());
        if (style == Style.REORDERED) {
          Collections.reverse(parts);
        }
        if (q == 0 && "repeat-partition".equals(defect)) {
          parts.add(parts.get(0));
        }
        out.append('{').append(ws(style));
        for (int p = 0; p < parts.size(); p++) {
          if (p > 0) {
            out.append(',').append(ws(style));
          }
          boolean first = q == 0 && p == 0;
          String index = "" + parts.get(p).getKey();
          if (first && defect != null && defect.startsWith("index=")) {
            index = defect.substring(6);
          }
          String offset = parts.get(p).getValue();
          if (first && defect != null && defect.startsWith("offset=")) {
            offset = defect.substring(7);
          }
          out.append(string(index, style == Style.ESCAPED))
              .append(ws(style))
              .append(':')
              .append(ws(style))
              .append(offset)
              .append(ws(style));
        }
        out.append('}').append(ws(style));
      }
      out.append('}');
    }
    if (style == Style.VERSION_LAST && version != null) {
      out.append(',').append(version);
    }
    out.append(ws(style)).append('}');
    return out.toString();
  }

  private String ws(Style style) {
    if (style != Style.SPACED || random.nextBoolean()) {
      return "";
    }
    return new String[] {" ", "\n", "\r\n", "\t", "  "}[random.nextInt(5)];
  }

  /** A JSON string; with {@code escaped}, some characters as {@code \\uXXXX} or {@code \/}. */
  private String string(String value, boolean escaped) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (escaped && c == '/' && random.nextBoolean()) {
        out.append("\\/");
      } else if (escaped && random.nextInt(3) == 0) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }
}
