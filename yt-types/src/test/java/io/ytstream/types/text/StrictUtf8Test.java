package io.ytstream.types.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class StrictUtf8Test {

  @Test
  void wellFormedTextReadsAsText() {
    for (String text : new String[] {"", "id", "привет", "日本", "😀", "a\uFFFDb"}) {
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      assertEquals(text, StrictUtf8.decodeOrNull(bytes), text);
      assertEquals(true, StrictUtf8.isWellFormed(bytes, 0, bytes.length), text);
    }
  }

  @Test
  void malformedBytesAreNotText() {
    byte[][] cases = {
      {(byte) 0xFF},
      {(byte) 0xC0, (byte) 0x80}, // overlong NUL
      {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, // a surrogate's code point
      {(byte) 0xE2, (byte) 0x82}, // cut short
      {'a', (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // past U+10FFFF
    };
    for (byte[] bytes : cases) {
      assertNull(StrictUtf8.decodeOrNull(bytes), Arrays.toString(bytes));
      assertEquals(false, StrictUtf8.isWellFormed(bytes, 0, bytes.length), Arrays.toString(bytes));
    }
  }

  @Test
  void aSliceIsReadAlone() {
    byte[] bytes = {(byte) 0xFF, 'i', 'd', (byte) 0xFF};
    assertEquals("id", StrictUtf8.decodeOrNull(bytes, 1, 2));
    assertEquals(true, StrictUtf8.isWellFormed(bytes, 1, 2));
    assertEquals(false, StrictUtf8.isWellFormed(bytes, 0, 3));
  }

  /** Random bytes, mostly near the multi-byte edges: the answer is the strict decoder's. */
  @Test
  void agreesWithTheStrictDecoderOnRandomBytes() {
    SplittableRandom random = new SplittableRandom(20261205L);
    byte[] edges = {
      0,
      0x7F,
      (byte) 0x80,
      (byte) 0xBF,
      (byte) 0xC0,
      (byte) 0xC2,
      (byte) 0xDF,
      (byte) 0xE0,
      (byte) 0xED,
      (byte) 0xEF,
      (byte) 0xF0,
      (byte) 0xF4,
      (byte) 0xF5,
      (byte) 0xFF,
      (byte) 0xBD
    };
    for (int round = 0; round < 200_000; round++) {
      byte[] bytes = new byte[random.nextInt(7)];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] =
            random.nextInt(3) == 0
                ? (byte) random.nextInt(256)
                : edges[random.nextInt(edges.length)];
      }
      assertEquals(strict(bytes), StrictUtf8.decodeOrNull(bytes), Arrays.toString(bytes));
    }
  }

  private static String strict(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
