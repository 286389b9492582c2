package io.ytstream.application.offsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class OffsetsJsonTest {

  private static final QueueId Q = QueueId.of("primary", "//home/q");

  private static String error(String json) {
    return assertThrows(IllegalArgumentException.class, () -> OffsetsJson.parse(json), json)
        .getMessage();
  }

  private static void assertErrorContains(String json, String... parts) {
    String message = error(json);
    for (String part : parts) {
      assertTrue(message.contains(part), () -> "'" + message + "' lacks '" + part + "'");
    }
  }

  @Test
  void writesTheDocumentedShape() {
    StreamOffsets offsets = StreamOffsets.ofQueue(Q, Map.of(0, 42L, 1, 7L));
    assertEquals(
        "{\"version\":1,\"queues\":{\"primary://home/q\":{\"0\":42,\"1\":7}}}",
        OffsetsJson.write(offsets));
    assertEquals(offsets, OffsetsJson.parse(OffsetsJson.write(offsets)));
    assertEquals(1, OffsetsJson.VERSION);
  }

  @Test
  void emptyOffsets() {
    assertEquals("{\"version\":1,\"queues\":{}}", OffsetsJson.write(StreamOffsets.empty()));
    assertEquals(StreamOffsets.empty(), OffsetsJson.parse("{\"version\":1,\"queues\":{}}"));
    // A queue with no partitions carries nothing.
    assertEquals(
        StreamOffsets.empty(), OffsetsJson.parse("{\"version\":1,\"queues\":{\"c://q\":{}}}"));
  }

  @Test
  void keyOrderIsDeterministic() {
    QueueId qa = QueueId.of("a", "//z");
    QueueId qb = QueueId.of("b", "//a");
    QueueId qa2 = QueueId.of("a", "//zz");
    HashMap<PartitionId, Long> m = new HashMap<>();
    m.put(new PartitionId(qb, 0), 1L);
    m.put(new PartitionId(qa, 10), 2L);
    m.put(new PartitionId(qa, 9), 3L);
    m.put(new PartitionId(qa2, 0), 4L);
    m.put(new PartitionId(qa, 0), 5L);
    String expected =
        "{\"version\":1,\"queues\":{\"a://z\":{\"0\":5,\"9\":3,\"10\":2},"
            + "\"a://zz\":{\"0\":4},\"b://a\":{\"0\":1}}}";
    assertEquals(expected, OffsetsJson.write(StreamOffsets.of(m)));
    // Parsing a document with keys in any order writes them back in the same order.
    String shuffled =
        "{\"queues\":{\"b://a\":{\"0\":1},\"a://zz\":{\"0\":4},"
            + "\"a://z\":{\"10\":2,\"0\":5,\"9\":3}},\"version\":1}";
    assertEquals(expected, OffsetsJson.write(OffsetsJson.parse(shuffled)));
  }

  @Test
  void roundTripRandomized() {
    for (long seed = 1; seed <= 500; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      TreeMap<PartitionId, Long> m = new TreeMap<>();
      int queues = random.nextInt(6);
      for (int q = 0; q < queues; q++) {
        QueueId queue = QueueId.of("c" + random.nextInt(3), "//home/q" + random.nextInt(1000));
        int partitions = random.nextInt(20);
        for (int p = 0; p < partitions; p++) {
          int index = random.nextInt(4) == 0 ? random.nextInt(Integer.MAX_VALUE) : p;
          long offset =
              switch (random.nextInt(4)) {
                case 0 -> 0L;
                case 1 -> Long.MAX_VALUE - random.nextInt(3);
                case 2 -> random.nextLong(1L << 40);
                default -> random.nextLong(Long.MAX_VALUE);
              };
          m.put(new PartitionId(queue, index), offset);
        }
      }
      StreamOffsets offsets = StreamOffsets.of(m);
      String json = OffsetsJson.write(offsets);
      long s = seed;
      assertEquals(offsets, OffsetsJson.parse(json), () -> "seed=" + s + " json=" + json);
      assertEquals(json, OffsetsJson.write(OffsetsJson.parse(json)), "seed=" + seed);
    }
  }

  @Test
  void keysWithEscapesRoundTrip() {
    List<String> paths =
        List.of(
            "//a\"b",
            "//a\\b",
            "//a\u0001b",
            "//\u00e9t\u00e9",
            "//a:b",
            "//x\u0002\u0007",
            "//emoji\ud83d\ude00",
            "//{\"version\":2}");
    for (String path : paths) {
      QueueId queue = QueueId.of("c", path);
      StreamOffsets offsets = StreamOffsets.ofQueue(queue, Map.of(0, 1L, 3, 4L));
      String json = OffsetsJson.write(offsets);
      assertEquals(offsets, OffsetsJson.parse(json), json);
    }
    assertEquals(
        "{\"version\":1,\"queues\":{\"c://a\\\"b\\\\c\\u0001\":{\"0\":1}}}",
        OffsetsJson.write(
            StreamOffsets.ofQueue(QueueId.of("c", "//a\"b\\c\u0001"), Map.of(0, 1L))));
    // Escaped forms a different writer may use are read too.
    assertEquals(
        StreamOffsets.ofQueue(QueueId.of("c", "//home/q"), Map.of(0, 1L)),
        OffsetsJson.parse("{\"version\":1,\"queues\":{\"c:\\/\\/home\\u002fq\":{\"\\u0030\":1}}}"));
  }

  @Test
  void whiteSpaceIsAllowed() {
    assertEquals(
        StreamOffsets.ofQueue(Q, Map.of(0, 42L)),
        OffsetsJson.parse(
            "\n { \"version\" : 1 ,\r\n \"queues\" : { \"primary://home/q\" : { \"0\" : 42 } } }\t"));
  }

  @Test
  void rejectsUnknownVersions() {
    for (String version : List.of("0", "2", "-1", "100", "9223372036854775807")) {
      String message = error("{\"version\":" + version + ",\"queues\":{}}");
      assertEquals(
          "offsets JSON has version "
              + version
              + ", but this ytstream reads version 1 only; was the checkpoint written by a newer"
              + " ytstream? Use that version or a new checkpointLocation",
          message);
    }
    // The version is checked before anything else a newer format may have changed.
    assertErrorContains(
        "{\"version\":2,\"queues\":[1],\"extra\":true}", "has version 2", "reads version 1");
    assertErrorContains("{\"version\":2,\"streams\":{}}", "has version 2", "reads version 1");
  }

  @Test
  void rejectsMissingOrNonIntegerVersion() {
    for (String json :
        List.of(
            "{\"queues\":{}}",
            "{\"version\":\"1\",\"queues\":{}}",
            "{\"version\":{},\"queues\":{}}",
            "{}")) {
      assertEquals("offsets JSON has no integer \"version\" field: " + json, error(json));
    }
  }

  @Test
  void rejectsEmptyInput() {
    for (String json : new String[] {null, "", "   ", "\n\t"}) {
      assertEquals("offsets JSON is empty", error(json));
    }
  }

  @Test
  void rejectsNonObjects() {
    for (String json : List.of("1", "\"x\"", "-5")) {
      assertEquals("offsets JSON must be an object, got: " + json, error(json));
    }
  }

  @Test
  void rejectsEveryTruncation() {
    String full =
        OffsetsJson.write(
            StreamOffsets.of(
                Map.of(
                    new PartitionId(Q, 0),
                    42L,
                    new PartitionId(Q, 12),
                    7L,
                    new PartitionId(QueueId.of("b", "//x\"y"), 3),
                    1234567L)));
    for (int length = 0; length < full.length(); length++) {
      String prefix = full.substring(0, length);
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> OffsetsJson.parse(prefix), "prefix " + length);
      assertTrue(
          e.getMessage().startsWith("offsets JSON is"),
          () -> "prefix " + prefix + ": " + e.getMessage());
    }
  }

  @Test
  void rejectsMalformedDocumentsWithAClearMessage() {
    Map<String, String> cases = new LinkedHashMap<>();
    cases.put("{\"version\":1,\"queues\":{}} x", "unexpected text after the document");
    cases.put("{\"version\":1,\"queues\":{}}{}", "unexpected text after the document");
    cases.put("{\"version\":01,\"queues\":{}}", "leading zero");
    cases.put("{\"version\":1,\"queues\":{\"c://q\":{\"0\":007}}}", "leading zero");
    cases.put("{\"version\":1,\"version\":1,\"queues\":{}}", "duplicate key \"version\"");
    cases.put("{\"version\":1,\"queues\":{\"c://q\":{},\"c://q\":{}}}", "duplicate key \"c://q\"");
    cases.put("{\"version\":1,\"queues\":{\"c://q\":{\"0\":1,\"0\":2}}}", "duplicate key \"0\"");
    cases.put(
        "{\"version\":1,\"queues\":{\"c://q\":{\"0\":[1}}}",
        "expected ',' or ']' at character 38 (at $.queues.c://q.0)");
    cases.put("{\"version\":tru,\"queues\":{}}", "unexpected character 't'");
    for (Map.Entry<String, String> c : cases.entrySet()) {
      String message = error(c.getKey());
      assertTrue(
          message.startsWith("offsets JSON is malformed: "), () -> c.getKey() + ": " + message);
      assertTrue(message.contains(c.getValue()), () -> c.getKey() + ": " + message);
      assertTrue(message.endsWith(" in: " + c.getKey()), () -> c.getKey() + ": " + message);
    }
  }

  @Test
  void wellFormedValuesOfTheWrongKindNameTheField() {
    Map<String, String> cases = new LinkedHashMap<>();
    cases.put("{\"version\":1.0,\"queues\":{}}", "offsets JSON has no integer \"version\" field");
    cases.put("{\"version\":true,\"queues\":{}}", "offsets JSON has no integer \"version\" field");
    cases.put(
        "{\"version\":1,\"queues\":{\"c://q\":{\"0\":1.5}}}",
        "offset of c://q partition 0 must be an integer >= 0, got 1.5");
    cases.put(
        "{\"version\":1,\"queues\":{\"c://q\":{\"0\":1e3}}}",
        "offset of c://q partition 0 must be an integer >= 0, got 1000.0");
    cases.put(
        "{\"version\":1,\"queues\":{\"c://q\":{\"0\":[1]}}}",
        "offset of c://q partition 0 must be an integer >= 0, got [1]");
    cases.put(
        "{\"version\":1,\"queues\":{\"c://q\":{\"0\":null}}}",
        "offset of c://q partition 0 must be an integer >= 0, got null");
    cases.put(
        "{\"version\":1,\"queues\":{\"c://q\":{\"0\":99999999999999999999}}}",
        "offset of c://q partition 0 must be an integer >= 0, got 99999999999999999999");
    cases.put("{\"version\":1,\"queues\":[]}", "offsets JSON has no \"queues\" object");
    for (Map.Entry<String, String> c : cases.entrySet()) {
      String message = error(c.getKey());
      assertTrue(message.startsWith(c.getValue()), () -> c.getKey() + ": " + message);
    }
  }

  @Test
  void longInputIsAbbreviatedInMessages() {
    String padding = " ".repeat(300);
    String json = "{\"version\":1," + padding + "\"queues\":{}} trailing";
    String message = error(json);
    assertTrue(message.endsWith(" in: " + json.substring(0, 200) + "..."), message);
    String noVersion = "{\"queues\":{}," + padding + "\"x\":1}";
    assertEquals(
        "offsets JSON has no integer \"version\" field: " + noVersion.substring(0, 200) + "...",
        error(noVersion));
  }

  @Test
  void inputOfExactly200CharactersIsQuotedWhole() {
    String base = "{\"queues\":{},\"x\":1}";
    String json = base.substring(0, base.length() - 1) + " ".repeat(200 - base.length()) + "}";
    assertEquals(200, json.length());
    assertEquals("offsets JSON has no integer \"version\" field: " + json, error(json));
    String longer = json + " ";
    assertEquals("offsets JSON has no integer \"version\" field: " + json + "...", error(longer));
  }

  @Test
  void rejectsUnknownTopLevelFields() {
    assertEquals(
        "offsets JSON version 1 has an unknown field \"extra\"",
        error("{\"version\":1,\"queues\":{},\"extra\":1}"));
    assertEquals(
        "offsets JSON version 1 has an unknown field \"Queues\"",
        error("{\"version\":1,\"Queues\":{}}"));
  }

  @Test
  void rejectsWrongTypes() {
    for (String json :
        List.of(
            "{\"version\":1}",
            "{\"version\":1,\"queues\":1}",
            "{\"version\":1,\"queues\":\"x\"}")) {
      assertEquals("offsets JSON has no \"queues\" object: " + json, error(json));
    }
    assertEquals(
        "offsets of queue c://q must be an object {\"<partition>\": <offset>}",
        error("{\"version\":1,\"queues\":{\"c://q\":5}}"));
    assertEquals(
        "offsets of queue c://q must be an object {\"<partition>\": <offset>}",
        error("{\"version\":1,\"queues\":{\"c://q\":\"5\"}}"));
    assertEquals(
        "offset of c://q partition 0 must be an integer >= 0, got 5",
        error("{\"version\":1,\"queues\":{\"c://q\":{\"0\":\"5\"}}}"));
    assertEquals(
        "offset of c://q partition 0 must be an integer >= 0, got {}",
        error("{\"version\":1,\"queues\":{\"c://q\":{\"0\":{}}}}"));
  }

  @Test
  void rejectsNegativeOffsets() {
    assertEquals(
        "offset of c://q partition 3 must be an integer >= 0, got -1",
        error("{\"version\":1,\"queues\":{\"c://q\":{\"3\":-1}}}"));
    assertEquals(
        "offset of c://q partition 0 must be an integer >= 0, got -9223372036854775808",
        error("{\"version\":1,\"queues\":{\"c://q\":{\"0\":-9223372036854775808}}}"));
    // Zero, including JSON's "-0", is a valid offset.
    assertEquals(
        StreamOffsets.ofQueue(QueueId.of("c", "//q"), Map.of(0, 0L)),
        OffsetsJson.parse("{\"version\":1,\"queues\":{\"c://q\":{\"0\":-0}}}"));
  }

  @Test
  void rejectsNonIntegerPartitionKeys() {
    for (String key :
        List.of("a", "", "-1", "01", "00", "+1", "1.0", " 1", "1 ", "2147483648", "-0", "1e2")) {
      String json = "{\"version\":1,\"queues\":{\"c://q\":{\"" + key + "\":1}}}";
      assertEquals(
          "partition key \"" + key + "\" of queue c://q is not a partition index >= 0",
          error(json),
          json);
    }
    assertEquals(
        StreamOffsets.of(Map.of(new PartitionId(QueueId.of("c", "//q"), Integer.MAX_VALUE), 1L)),
        OffsetsJson.parse("{\"version\":1,\"queues\":{\"c://q\":{\"2147483647\":1}}}"));
  }

  @Test
  void rejectsBadQueueKeys() {
    assertThrows(
        IllegalArgumentException.class,
        () -> OffsetsJson.parse("{\"version\":1,\"queues\":{\"noColon\":{\"0\":1}}}"));
    assertThrows(
        IllegalArgumentException.class,
        () -> OffsetsJson.parse("{\"version\":1,\"queues\":{\"c:relative\":{\"0\":1}}}"));
  }

  @Test
  void writeIsIndependentOfInsertionOrder() {
    for (long seed = 1; seed <= 50; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      List<PartitionId> ids = new ArrayList<>();
      for (int q = 0; q < 3; q++) {
        for (int p = 0; p < 5; p++) {
          ids.add(new PartitionId(QueueId.of("c" + q, "//q" + (2 - q)), p * 3));
        }
      }
      Map<PartitionId, Long> ordered = new LinkedHashMap<>();
      for (PartitionId id : ids) {
        ordered.put(id, (long) id.index());
      }
      Collections.shuffle(ids, new java.util.Random(random.nextLong()));
      Map<PartitionId, Long> shuffled = new LinkedHashMap<>();
      for (PartitionId id : ids) {
        shuffled.put(id, (long) id.index());
      }
      assertEquals(
          OffsetsJson.write(StreamOffsets.of(ordered)),
          OffsetsJson.write(StreamOffsets.of(shuffled)),
          "seed=" + seed);
    }
  }
}
