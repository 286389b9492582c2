package io.ytstream.application.offsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.types.json.JsonWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Seed-drawn SPYT offsets (as SPYT's {@code YtQueueOffset} writes them: {@code cluster}, {@code
 * path}, {@code partitions} 0..n-1, each the last row read, -1 for none) read as ytstream's offsets
 * one row further on the same queue; written in ytstream's form they read back the same and are
 * never taken for SPYT's again; the same offsets written another valid way (spaces, fields in
 * another order, partitions out of order) read the same; one defect (a gap, a value below -1, at
 * the long range's end or not an integer, a field missing, an unknown field, ytstream's {@code
 * version}, a relative path, a cut) is refused or not taken for SPYT's, never read as other
 * offsets.
 */
class SpytOffsetsPropertyTest {

  private static final String[] CLUSTERS = {"primary", "hahn", "a", "zeno-2"};
  private static final String[] PATHS = {
    "//home/q", "//home/queue10", "//tmp/x\"y", "//home/caf\u00e9", "//a/b/c"
  };
  private static final long[] VALUES = {-1, 0, 1, 41, 999_999_999_999L, Long.MAX_VALUE - 1};

  private Random random;
  private Consumer<String> violate;

  @Test
  void holdsForEverySeed() {
    for (long seed = 1; seed <= 1_000; seed++) {
      List<String> violations = new ArrayList<>();
      random = new Random(seed);
      violate = violations::add;
      for (int i = 0; i < 4; i++) {
        checkOne();
      }
      assertEquals(List.of(), violations, "seed " + seed);
    }
  }

  private void checkOne() {
    String cluster = CLUSTERS[random.nextInt(CLUSTERS.length)];
    String path = PATHS[random.nextInt(PATHS.length)];
    int count = random.nextInt(8) == 0 ? 0 : 1 + random.nextInt(random.nextBoolean() ? 4 : 40);
    TreeMap<Integer, Long> lastRead = new TreeMap<>();
    for (int p = 0; p < count; p++) {
      lastRead.put(
          p,
          random.nextInt(3) == 0
              ? VALUES[random.nextInt(VALUES.length)]
              : random.nextLong(random.nextBoolean() ? 1000 : Long.MAX_VALUE) - 1);
    }
    QueueId queue = QueueId.of(cluster, path);
    TreeMap<PartitionId, Long> expected = new TreeMap<>();
    lastRead.forEach((p, v) -> expected.put(new PartitionId(queue, p), v + 1));
    StreamOffsets want = StreamOffsets.of(expected);

    String spyt = spyt(cluster, path, lastRead, Style.SPYT);
    expectRead("as SPYT writes it", spyt, want);
    expectRead("spaced", spyt(cluster, path, lastRead, Style.SPACED), want);
    expectRead("fields reordered", spyt(cluster, path, lastRead, Style.REORDERED), want);

    // Once converted, the offsets are ytstream's: read back the same, never as SPYT's again.
    String ours = OffsetsJson.write(want);
    if (SpytOffsetsJson.isSpytOffsets(ours)) {
      violate.accept("ytstream's offsets " + ours + " are taken for SPYT's");
    }
    LoggedOffsets again = LoggedOffsets.read(ours);
    if (again.convertedFromSpyt() || !again.offsets().equals(want)) {
      violate.accept("ytstream's " + ours + " read back as " + again);
    }

    // One defect each.
    expectRefused("version field", spyt.replaceFirst("\\{", "{\"version\":1,"));
    expectRefused("unknown field", spyt.replaceFirst("\\{", "{\"extra\":0,"));
    expectRefused("no cluster", spyt.replaceFirst("\"cluster\":\"[^\"]*\",", ""));
    expectRefused("no partitions", spyt.replaceFirst(",\"partitions\":.*}$", "}"));
    expectRefused("relative path", spyt(cluster, "home/q", lastRead, Style.SPYT));
    int cut = random.nextInt(spyt.length());
    expectRefused("cut after " + cut, spyt.substring(0, cut));
    if (count > 0) {
      int victim = random.nextInt(count);
      TreeMap<Integer, Long> gap = new TreeMap<>(lastRead);
      gap.put(count, gap.remove(victim));
      expectRefused("gap at " + victim, spyt(cluster, path, gap, Style.SPYT));
      for (String bad : new String[] {"-2", "9223372036854775807", "1.5", "\"3\"", "null"}) {
        String text = spyt(cluster, path, lastRead, Style.SPYT);
        String key = "\"" + victim + "\":" + lastRead.get(victim);
        String broken = text.replace(key + ",", "\"" + victim + "\":" + bad + ",");
        if (broken.equals(text)) {
          broken = text.replace(key + "}", "\"" + victim + "\":" + bad + "}");
        }
        expectRefused("value " + bad, broken);
      }
    }
  }

  private enum Style {
    SPYT,
    SPACED,
    REORDERED
  }

  /** SPYT's text: circe's derived encoder, fields in declaration order, no spaces. */
  private String spyt(String cluster, String path, Map<Integer, Long> lastRead, Style style) {
    StringBuilder parts = new StringBuilder("{");
    List<Map.Entry<Integer, Long>> entries = new ArrayList<>(lastRead.entrySet());
    if (style == Style.REORDERED) {
      java.util.Collections.reverse(entries);
    }
    String sep = style == Style.SPACED ? ", " : ",";
    String colon = style == Style.SPACED ? " : " : ":";
    for (int i = 0; i < entries.size(); i++) {
      if (i > 0) {
        parts.append(sep);
      }
      parts.append('"').append(entries.get(i).getKey()).append('"').append(colon);
      parts.append(entries.get(i).getValue());
    }
    parts.append('}');
    StringBuilder c = new StringBuilder();
    JsonWriter.appendString(c, cluster);
    StringBuilder p = new StringBuilder();
    JsonWriter.appendString(p, path);
    String clusterField = "\"cluster\"" + colon + c;
    String pathField = "\"path\"" + colon + p;
    String partitionsField = "\"partitions\"" + colon + parts;
    return style == Style.REORDERED
        ? "{" + partitionsField + sep + pathField + sep + clusterField + "}"
        : (style == Style.SPACED ? " { " : "{")
            + clusterField
            + sep
            + pathField
            + sep
            + partitionsField
            + (style == Style.SPACED ? " } " : "}");
  }

  private void expectRead(String how, String text, StreamOffsets want) {
    try {
      if (!SpytOffsetsJson.isSpytOffsets(text)) {
        violate.accept("SPYT's offsets (" + how + ") " + text + " are not taken for SPYT's");
        return;
      }
      LoggedOffsets read = LoggedOffsets.read(text);
      if (!read.convertedFromSpyt() || !read.offsets().equals(want)) {
        violate.accept("SPYT's offsets (" + how + ") " + text + " read as " + read);
      }
    } catch (RuntimeException e) {
      violate.accept("SPYT's offsets (" + how + ") " + text + " failed: " + e);
    }
  }

  /** Refused by both readers, or (when not SPYT's shape) not taken for SPYT's. */
  private void expectRefused(String how, String text) {
    try {
      StreamOffsets read = SpytOffsetsJson.parse(text);
      violate.accept("a SPYT text with a defect (" + how + ") " + text + " read as " + read);
    } catch (IllegalArgumentException expected) {
      // refused, naming the problem
    }
    try {
      LoggedOffsets read = LoggedOffsets.read(text);
      violate.accept("a text with a defect (" + how + ") " + text + " read as " + read);
    } catch (IllegalArgumentException expected) {
      // neither form
    }
  }
}
