package io.ytstream.application.offsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ytstream.core.model.StartingOffsets;
import io.ytstream.core.model.YPath;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * For the text a user gives options {@code starting_offsets} and {@code ending_offsets}: seed-drawn
 * texts (earliest and latest in any case, JSON with -2, -1 and row indices up to {@link
 * Long#MAX_VALUE}, any key order and white space) read as the offsets they say; a text with one
 * mistake is refused with a message quoting what is wrong, since that is what the user has to find
 * and fix in the query's options.
 */
class StartingOffsetsTextPropertyTest {

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

  private static final long[] OFFSETS = {
    StartingOffsets.EARLIEST, StartingOffsets.LATEST, 0, 1, 42, Long.MAX_VALUE
  };

  private Random random;
  private Consumer<String> violate;

  private void checkSeed() {
    named();
    for (int i = 0; i < 3; i++) {
      specific();
    }
  }

  private void named() {
    String word = random.nextBoolean() ? "earliest" : "latest";
    StringBuilder text = new StringBuilder(pad());
    for (char c : word.toCharArray()) {
      text.append(random.nextBoolean() ? Character.toUpperCase(c) : c);
    }
    text.append(pad());
    StartingOffsets expected =
        word.equals("earliest") ? new StartingOffsets.Earliest() : new StartingOffsets.Latest();
    expectRead(text.toString(), expected);
    expectRefused(text.toString().replace('e', '3').replace('E', '3'), "");
  }

  private void specific() {
    TreeMap<YPath, Map<Integer, Long>> expected = new TreeMap<>();
    int queues = 1 + random.nextInt(3);
    for (int q = 0; q < queues; q++) {
      TreeMap<Integer, Long> partitions = new TreeMap<>();
      int n = random.nextInt(4);
      for (int p = 0; p < n; p++) {
        partitions.put(
            random.nextInt(3) == 0 ? random.nextInt(Integer.MAX_VALUE) : random.nextInt(8),
            random.nextBoolean()
                ? OFFSETS[random.nextInt(OFFSETS.length)]
                : random.nextLong(Long.MAX_VALUE));
      }
      expected.put(YPath.of("//home/q" + random.nextInt(50)), partitions);
    }
    expectRead(render(expected, null), new StartingOffsets.Specific(expected));
    YPath first = expected.firstKey();
    long badOffset = -3 - random.nextInt(1000);
    expectRefused(render(expected, "offset=" + badOffset), "" + badOffset);
    String fraction = "1.5";
    expectRefused(render(expected, "offset=" + fraction), fraction);
    String index = new String[] {"-1", "x", "one", "-7"}[random.nextInt(4)];
    expectRefused(render(expected, "index=" + index), index);
    String path = new String[] {"home/q", "/home/q", "q"}[random.nextInt(3)];
    expectRefused(render(expected, "path=" + path), path);
    expectRefused(render(expected, "queue=5"), first.value());
    expectRefused(pad() + "{}" + pad(), "{}");
    String broken = render(expected, null).trim();
    broken = broken.substring(0, random.nextInt(broken.length()));
    if (!broken.isBlank()) {
      expectRefused(broken, broken.trim());
    }
  }

  private void expectRead(String text, StartingOffsets expected) {
    try {
      StartingOffsets read = StartingOffsetsText.parse(text);
      if (!read.equals(expected)) {
        violate.accept("starting_offsets '" + text + "' read as " + read + ", not " + expected);
      }
    } catch (RuntimeException e) {
      violate.accept("starting_offsets '" + text + "' refused: " + e);
    }
  }

  /** Refused with an {@link IllegalArgumentException} whose message quotes {@code quoted}. */
  private void expectRefused(String text, String quoted) {
    try {
      StartingOffsets read = StartingOffsetsText.parse(text);
      violate.accept("starting_offsets '" + text + "' read as " + read);
    } catch (IllegalArgumentException e) {
      if (e.getMessage() == null || !e.getMessage().contains(quoted)) {
        violate.accept(
            "starting_offsets '" + text + "' refused without naming '" + quoted + "': " + e);
      }
    } catch (RuntimeException e) {
      violate.accept("starting_offsets '" + text + "' failed with " + e);
    }
  }

  /** The JSON form, keys in a random order, with the one {@code defect} on the first queue. */
  private String render(TreeMap<YPath, Map<Integer, Long>> offsets, String defect) {
    List<YPath> queues = new ArrayList<>(offsets.keySet());
    List<YPath> order = new ArrayList<>(queues);
    Collections.shuffle(order, new java.util.Random(random.nextLong()));
    StringBuilder out = new StringBuilder(pad()).append('{');
    for (int q = 0; q < order.size(); q++) {
      YPath path = order.get(q);
      boolean first = path.equals(queues.get(0));
      out.append(q > 0 ? "," : "").append(pad());
      String key =
          first && defect != null && defect.startsWith("path=")
              ? defect.substring(5)
              : path.value();
      out.append('"').append(key).append("\":").append(pad());
      if (first && "queue=5".equals(defect)) {
        out.append('5');
        continue;
      }
      out.append('{');
      List<Map.Entry<Integer, Long>> parts = new ArrayList<>(offsets.get(path).entrySet());
      Collections.shuffle(parts, new java.util.Random(random.nextLong()));
      boolean defectPlaced = false;
      for (int p = 0; p < parts.size(); p++) {
        out.append(p > 0 ? "," : "").append(pad());
        String index = "" + parts.get(p).getKey();
        String offset = "" + parts.get(p).getValue();
        if (first && p == 0 && defect != null) {
          defectPlaced = true;
          if (defect.startsWith("index=")) {
            index = defect.substring(6);
          } else if (defect.startsWith("offset=")) {
            offset = defect.substring(7);
          }
        }
        out.append('"').append(index).append("\":").append(pad()).append(offset);
      }
      if (first
          && !defectPlaced
          && defect != null
          && (defect.startsWith("index=") || defect.startsWith("offset="))) {
        out.append(parts.isEmpty() ? "" : ",");
        String index = defect.startsWith("index=") ? defect.substring(6) : "0";
        String offset = defect.startsWith("offset=") ? defect.substring(7) : "0";
        out.append('"').append(index).append("\":").append(offset);
      }
      out.append(pad()).append('}');
    }
    return out.append(pad()).append('}').append(pad()).toString();
  }

  private String pad() {
    return random.nextInt(3) == 0 ? new String[] {" ", "\n", "\t "}[random.nextInt(3)] : "";
  }
}
