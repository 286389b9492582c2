package io.ytstream.application.offsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The one-pass reader must take every document {@link OffsetsJson#write} produces, and whatever it
 * takes it must read exactly as the general reader does; anything else it leaves to that reader.
 */
class CanonicalOffsetsJsonTest {

  @Test
  void readsWhatTheWriterWrites() {
    for (long seed = 1; seed <= 300; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      TreeMap<PartitionId, Long> m = new TreeMap<>();
      int queues = random.nextInt(4);
      for (int q = 0; q < queues; q++) {
        QueueId queue = QueueId.of("c" + random.nextInt(3), "//home/q" + random.nextInt(100));
        for (int p = 0; p < random.nextInt(30); p++) {
          int index = random.nextInt(5) == 0 ? random.nextInt(Integer.MAX_VALUE) : p;
          long offset =
              random.nextBoolean() ? random.nextLong(1000) : random.nextLong(Long.MAX_VALUE);
          m.put(new PartitionId(queue, index), offset);
        }
      }
      StreamOffsets offsets = StreamOffsets.of(m);
      String json = OffsetsJson.write(offsets);
      StreamOffsets read = CanonicalOffsetsJson.parse(json);
      assertNotNull(read, json);
      assertEquals(offsets, read, json);
    }
  }

  @Test
  void leavesEverythingElseToTheGeneralReader() {
    List<String> others =
        List.of(
            "{\"queues\":{},\"version\":1}",
            "{\"version\":2,\"queues\":{}}",
            "{\"version\":10,\"queues\":{}}",
            "{\"version\":1.0,\"queues\":{}}",
            "{\"version\":01,\"queues\":{}}",
            "{\"version\":1,\"queues\":{\"c://b\":{\"0\":1},\"c://a\":{\"0\":1}}}",
            "{\"version\":1,\"queues\":{\"c://a\":{\"0\":1},\"c://a\":{\"1\":1}}}",
            "{\"version\":1,\"queues\":{\"c://a\":{\"1\":1,\"0\":1}}}",
            "{\"version\":1,\"queues\":{\"c://a\":{\"0\":1,\"0\":2}}}",
            "{\"version\":1,\"queues\":{\"c://a\":{\"01\":1}}}",
            "{\"version\":1,\"queues\":{\"c://a\":{\"-1\":1}}}",
            "{\"version\":1,\"queues\":{\"c://a\":{\"0\":-1}}}",
            "{\"version\":1,\"queues\":{\"c://a\":{\"0\":01}}}",
            "{\"version\":1,\"queues\":{\"c://a\":{\"0\":1.5}}}",
            "{\"version\":1,\"queues\":{\"c://a\":{\"0\":1e3}}}",
            "{\"version\":1,\"queues\":{\"c://a\":{\"0\":9223372036854775808}}}",
            "{\"version\":1,\"queues\":{\"c://a\":{\"0\":99999999999999999999}}}",
            "{\"version\":1,\"queues\":{\"c://a\":{\"2147483648\":1}}}",
            "{\"version\":1,\"queues\":{\"c:\\/\\/a\":{\"0\":1}}}",
            "{\"version\":1,\"queues\":{\"c://a\":{\"\\u0030\":1}}}",
            "{\"version\":1,\"queues\":{\"bad\":{\"0\":1}}}",
            "{\"version\":1,\"queues\":{\"c://a\":{\"0\":1}}} x",
            "{\"version\":1,\"queues\":{\"c://a\":{\"0\":1}},\"extra\":1}",
            "{\"version\":1,\"queues\":{\"c://a\":{\"0\":1}}",
            "{\"version\":1,\"queues\":[]}",
            "{\"version\":1}");
    for (String json : others) {
      assertNull(CanonicalOffsetsJson.parse(json), json);
    }
    // What the writer never writes but the canonical shape allows is read the same both ways.
    String spaced =
        "\n{ \"version\" : 1 ,\t\"queues\" : { \"c://a\" : { \"0\" : 5 , \"7\":0 } ,"
            + " \"d://b\":{} } }\r\n";
    assertEquals(OffsetsJson.parseGeneral(spaced), CanonicalOffsetsJson.parse(spaced));
  }

  @Test
  void agreesWithTheGeneralReaderOnMutatedDocuments() {
    // Random edits of valid documents: whatever the one-pass reader accepts, the general reader
    // accepts with the same result.
    String alphabet = "{}\":,0123456789 -.e/\\ac";
    int accepted = 0;
    for (long seed = 1; seed <= 3000; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      TreeMap<PartitionId, Long> m = new TreeMap<>();
      QueueId queue = QueueId.of("c", "//a" + random.nextInt(3));
      for (int p = 0; p < 1 + random.nextInt(4); p++) {
        m.put(new PartitionId(queue, random.nextInt(12)), (long) random.nextInt(20));
      }
      StringBuilder json = new StringBuilder(OffsetsJson.write(StreamOffsets.of(m)));
      int edits = random.nextInt(3);
      for (int e = 0; e < edits; e++) {
        int at = random.nextInt(json.length());
        char c = alphabet.charAt(random.nextInt(alphabet.length()));
        switch (random.nextInt(3)) {
          case 0 -> json.insert(at, c);
          case 1 -> json.deleteCharAt(at);
          default -> json.setCharAt(at, c);
        }
      }
      String text = json.toString();
      StreamOffsets fast = CanonicalOffsetsJson.parse(text);
      if (fast != null) {
        accepted++;
        assertEquals(OffsetsJson.parseGeneral(text), fast, text);
      }
    }
    assertTrue(accepted > 1000, "too few documents accepted to compare: " + accepted);
  }
}
