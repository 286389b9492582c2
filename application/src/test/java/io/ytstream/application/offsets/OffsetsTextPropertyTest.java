package io.ytstream.application.offsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.types.json.JsonWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Seed-drawn offsets (many queues, sparse and large partition indices, offsets up to {@link
 * Long#MAX_VALUE}, queue paths with characters JSON escapes) are read back from their text to the
 * same offsets and written again to the same text; the same offsets written another valid way
 * (white space, another key order, escapes) read the same; and a text with one defect (another
 * version, a negative, fractional or overflowing number, a bad partition key, a repeated key, an
 * unknown field, trailing bytes, a cut) is refused, never read as other offsets.
 */
class OffsetsTextPropertyTest {

  @Test
  void holdsForEverySeed() {
    for (long seed = 1; seed <= 1_000; seed++) {
      List<String> violations = new ArrayList<>();
      random = new Random(seed);
      violate = violations::add;
      checkSeed();
      assertEquals(List.of(), violations, "seed " + seed);
    }
  }

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

  private Random random;
  private Consumer<String> violate;

  private void checkSeed() {
    for (int i = 0; i < 4; i++) {
      checkOne(draw());
    }
  }

  /** Seed-drawn offsets: 0-6 queues of 1-5 partitions, or in one draw of eight 20-59 queues. */
  StreamOffsets draw() {
    TreeMap<PartitionId, Long> map = new TreeMap<>();
    int queues = random.nextInt(8) == 0 ? 20 + random.nextInt(40) : random.nextInt(7);
    for (int q = 0; q < queues; q++) {
      QueueId queue = drawQueue();
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

  private QueueId drawQueue() {
    String path = "//sim";
    int depth = 1 + random.nextInt(2);
    for (int d = 0; d < depth; d++) {
      path += "/" + PATH_PARTS[random.nextInt(PATH_PARTS.length)];
    }
    return QueueId.of(CLUSTERS[random.nextInt(CLUSTERS.length)], path);
  }

  private void checkOne(StreamOffsets offsets) {
    String text = OffsetsJson.write(offsets);
    expectRead("as written", text, offsets);
    boolean plainKeys = offsets.asMap().keySet().stream().allMatch(p -> plain(p.queue().key()));
    // The writer's contract with the one-pass reader: what write gives is canonical (read in one
    // pass) unless a queue key needs escapes; the canonical shape with white space anywhere JSON
    // allows it and queues without partitions is canonical too, and reads to the same offsets.
    expectCanonical("as written", text, plainKeys);
    String canonical = canonical(offsets);
    expectRead("canonical, spaced", canonical, offsets);
    // (The queues without partitions may hold a key that needs escapes: then it is not canonical.)
    expectCanonical("canonical, spaced", canonical, canonical.indexOf('\\') < 0);
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
    String spaced = render(tree, Style.SPACED, null);
    expectRead("spaced", spaced, offsets);
    expectCanonical("spaced", spaced, plainKeys);
    String reordered = render(tree, Style.REORDERED, null);
    expectRead("reordered", reordered, offsets);
    // Reversed queues or partitions are out of the canonical order, unless there was one of each.
    expectCanonical(
        "reordered", reordered, plainKeys && reordered.equals(render(tree, Style.PLAIN, null)));
    String escaped = render(tree, Style.ESCAPED, null);
    expectRead("escaped", escaped, offsets);
    expectCanonical("escaped", escaped, escaped.indexOf('\\') < 0);
    String versionLast = render(tree, Style.VERSION_LAST, null);
    expectRead("version last", versionLast, offsets);
    expectCanonical("version last", versionLast, false);
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
      // The last queue's key again, right after it (without partitions, or with one past its
      // last): in the order of partitions, so only the repeated key is wrong.
      expectRefused(
          "queue twice, later partitions", render(tree, Style.PLAIN, "repeat-last-queue"));
      expectRefused("queue twice, empty", render(tree, Style.PLAIN, "repeat-queue-empty"));
      expectRefused("queue offsets not an object", render(tree, Style.PLAIN, "queue=5"));
      String key = new String[] {"nocolon", ":x", "primary:relative"}[random.nextInt(3)];
      expectRefused("queue key " + key, render(tree, Style.PLAIN, "key=" + key));
    }
  }

  /** Whether {@link OffsetsJson#isCanonical} says what the text's making says. */
  private void expectCanonical(String how, String text, boolean canonical) {
    if (OffsetsJson.isCanonical(text) != canonical) {
      violate.accept(
          "offsets text ("
              + how
              + ") "
              + text
              + (canonical ? " is not read in one pass" : " is taken as canonical"));
    }
  }

  /** Whether JSON writes {@code key} without escapes. */
  private static boolean plain(String key) {
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c == '"' || c == '\\' || c < 0x20) {
        return false;
      }
    }
    return true;
  }

  /**
   * The offsets in the canonical shape with white space drawn at every place JSON allows it and, in
   * one draw of three, queues without partitions among them (an empty object, which reads as no
   * offsets).
   */
  private String canonical(StreamOffsets offsets) {
    TreeMap<QueueId, TreeMap<Integer, Long>> queues = new TreeMap<>();
    offsets
        .asMap()
        .forEach(
            (p, o) -> queues.computeIfAbsent(p.queue(), q -> new TreeMap<>()).put(p.index(), o));
    if (random.nextInt(3) == 0) {
      for (int i = 1 + random.nextInt(2); i > 0; i--) {
        queues.putIfAbsent(drawQueue(), new TreeMap<>());
      }
    }
    StringBuilder out = new StringBuilder();
    out.append(gap()).append('{').append(gap()).append("\"version\"").append(gap()).append(':');
    out.append(gap()).append('1').append(gap()).append(',').append(gap()).append("\"queues\"");
    out.append(gap()).append(':').append(gap()).append('{');
    boolean firstQueue = true;
    for (Map.Entry<QueueId, TreeMap<Integer, Long>> queue : queues.entrySet()) {
      if (!firstQueue) {
        out.append(gap()).append(',');
      }
      firstQueue = false;
      out.append(gap());
      JsonWriter.appendString(out, queue.getKey().key());
      out.append(gap()).append(':').append(gap()).append('{');
      boolean firstPartition = true;
      for (Map.Entry<Integer, Long> partition : queue.getValue().entrySet()) {
        if (!firstPartition) {
          out.append(gap()).append(',');
        }
        firstPartition = false;
        out.append(gap()).append('"').append(partition.getKey()).append('"');
        out.append(gap()).append(':').append(gap()).append(partition.getValue());
      }
      out.append(gap()).append('}');
    }
    return out.append(gap()).append('}').append(gap()).append('}').append(gap()).toString();
  }

  /** JSON's white space, or none (half the time). */
  private String gap() {
    if (random.nextBoolean()) {
      return "";
    }
    return new String[] {" ", "\t", "\n", "\r", "\r\n", " \n\t "}[random.nextInt(6)];
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
      if ("repeat-last-queue".equals(defect) || "repeat-queue-empty".equals(defect)) {
        queues.add(queues.get(queues.size() - 1));
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
        boolean repeated = q > 0 && q == queues.size() - 1 && defect != null;
        if (repeated && "repeat-queue-empty".equals(defect)) {
          parts.clear();
        }
        if (repeated && "repeat-last-queue".equals(defect)) {
          // One partition past the queue's last (or none, past Integer.MAX_VALUE).
          int last = parts.get(parts.size() - 1).getKey();
          parts.clear();
          if (last < Integer.MAX_VALUE) {
            parts.add(Map.entry(last + 1, "7"));
          }
        }
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
