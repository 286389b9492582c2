package io.ytstream.types.yson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The token reader as a decoder outside this package uses it: tokens, then a whole value. */
class YsonLexerTest {

  /** A reader with errors of its own words and type, as a row decoder has. */
  private static final class Tokens extends YsonLexer {
    Tokens(byte[] data) {
      super(data, 0);
    }

    @Override
    protected IllegalStateException error(String what) {
      return new IllegalStateException("rows: " + what + " @" + pos);
    }
  }

  private static byte[] bytes(int... values) {
    byte[] out = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = (byte) values[i];
    }
    return out;
  }

  @Test
  void tokensThenAWholeValueAtTheSamePosition() {
    byte[] prefix = bytes(' ', '\t', 0x02, 0x03, 0x06, 0xff, 0x01, 0x01, 0x04, 'a', 'b', ' ');
    byte[] value = Yson.toBinary(Map.of("k", List.of(1L, "x")));
    byte[] data = new byte[prefix.length + value.length + 1];
    System.arraycopy(prefix, 0, data, 0, prefix.length);
    System.arraycopy(value, 0, data, prefix.length, value.length);
    data[data.length - 1] = ';';
    Tokens in = new Tokens(data);

    in.skipWhitespace();
    assertEquals(YsonLexer.INT64_MARKER, in.peek());
    in.pos++;
    assertEquals(-2L, in.readZigzag("int64"));
    assertEquals(YsonLexer.UINT64_MARKER, in.peek());
    in.pos++;
    assertEquals(255L, in.readVarint("uint64"));
    assertEquals(YsonLexer.STRING_MARKER, in.peek());
    in.pos++;
    assertEquals("ab", new String(in.readBinaryString(), java.nio.charset.StandardCharsets.UTF_8));
    Object read = in.readValue();
    assertEquals(true, Yson.equal(Map.of("k", List.of(1L, "x")), read), String.valueOf(read));
    assertEquals(data.length - 1, in.pos);
    assertEquals(';', in.peek());
  }

  @Test
  void errorsAreTheReadersOwnAndAVarintErrorPointsAtItsStart() {
    Tokens truncated = new Tokens(bytes(0x02, 0x80, 0x80));
    truncated.pos = 1;
    assertEquals(
        "rows: truncated varint of a binary int64 @1",
        assertThrows(IllegalStateException.class, () -> truncated.readZigzag("int64"))
            .getMessage());
    Tokens tooLong = new Tokens(bytes(0x01, 0x08, 'a'));
    tooLong.pos = 1;
    assertEquals(
        "rows: binary string length 4 exceeds the 1 bytes left @2",
        assertThrows(IllegalStateException.class, tooLong::readBinaryStringLength).getMessage());
    Tokens shortDouble = new Tokens(bytes(1, 2, 3));
    assertEquals(
        "rows: truncated binary double: 3 of 8 bytes @0",
        assertThrows(IllegalStateException.class, shortDouble::readBinaryDouble).getMessage());
    Tokens end = new Tokens(new byte[0]);
    assertEquals(
        "rows: unexpected end of input @0",
        assertThrows(IllegalStateException.class, end::peek).getMessage());
    // A whole value's errors are the tree reader's, with offsets in the whole input.
    Tokens value = new Tokens(bytes(' ', ' ', '[', '%', 'q', ']'));
    value.pos = 2;
    assertEquals(
        "YSON: unknown literal \"%q\", expected %true, %false, %nan, %inf, %+inf or %-inf at byte 3"
            + " (in /0)",
        assertThrows(IllegalArgumentException.class, value::readValue).getMessage());
  }
}
