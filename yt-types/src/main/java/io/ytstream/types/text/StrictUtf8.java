package io.ytstream.types.text;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Bytes as text only when they are well-formed UTF-8: a string column holds any bytes, and only
 * UTF-8 ones read as text. The JDK's decoder takes ASCII in one vectorized pass and turns each
 * malformed sequence into U+FFFD, so a result without U+FFFD needs no second look; only one holding
 * it (malformed input, or a real U+FFFD) goes through the strict decoder, which tells the two
 * apart. A {@code CharsetDecoder} per value, the plain way, was a fifth of the emulator's CPU on a
 * push.
 */
public final class StrictUtf8 {

  private static final char REPLACEMENT = '\uFFFD';

  private StrictUtf8() {}

  /** The text of {@code bytes} if they are well-formed UTF-8, else null. */
  public static String decodeOrNull(byte[] bytes) {
    return decodeOrNull(bytes, 0, bytes.length);
  }

  /** The text of {@code bytes[offset, offset + length)} if well-formed UTF-8, else null. */
  public static String decodeOrNull(byte[] bytes, int offset, int length) {
    String text = new String(bytes, offset, length, StandardCharsets.UTF_8);
    if (text.indexOf(REPLACEMENT) < 0) {
      return text;
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes, offset, length))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** Whether {@code bytes[offset, offset + length)} is well-formed UTF-8; ASCII in one loop. */
  public static boolean isWellFormed(byte[] bytes, int offset, int length) {
    int end = offset + length;
    for (int i = offset; i < end; i++) {
      if (bytes[i] < 0) {
        return decodeOrNull(bytes, offset, length) != null;
      }
    }
    return true;
  }
}
