package io.ytstream.types.yson;

import java.util.Arrays;

/**
 * The tokens of binary YSON over a byte array, as {@code
 * yt/docs/en/_includes/user-guide/storage/yson.md} defines them: a marker byte, then 0x01 string (a
 * zigzag varint length, then the bytes), 0x02 int64 (a zigzag varint), 0x03 double (8 bytes little
 * endian), 0x04 false, 0x05 true, 0x06 uint64 (a varint); and YSON's white space. Every binary YSON
 * reader builds on it: {@link Yson}'s tree reader, and a row decoder that reads a stream straight
 * into its own values.
 *
 * <p>A reader subclasses it and reads its grammar at {@link #pos} in {@link #data}; the token
 * methods move {@link #pos} past what they read, allocate nothing but a string's copy, and report a
 * problem through {@link #error}, which the reader words (its exception type, its context). On an
 * error about a varint {@link #pos} is where the varint starts.
 */
public abstract class YsonLexer {

  /** A binary string: a zigzag varint length, then the bytes. */
  public static final byte STRING_MARKER = 0x01;

  /** A binary int64: a zigzag varint. */
  public static final byte INT64_MARKER = 0x02;

  /** A binary double: 8 bytes, little endian. */
  public static final byte DOUBLE_MARKER = 0x03;

  /** The boolean false. */
  public static final byte FALSE_MARKER = 0x04;

  /** The boolean true. */
  public static final byte TRUE_MARKER = 0x05;

  /** A binary uint64: a varint. */
  public static final byte UINT64_MARKER = 0x06;

  /** YSON's white space by byte: space, tab, newline, carriage return, form feed, vertical tab. */
  private static final boolean[] WHITESPACE = new boolean[256];

  static {
    for (char c : new char[] {' ', '\t', '\n', '\r', '\f', 0x0B}) {
      WHITESPACE[c] = true;
    }
  }

  /** The input. */
  protected final byte[] data;

  /** The next byte to read. */
  protected int pos;

  protected YsonLexer(byte[] data, int pos) {
    this.data = data;
    this.pos = pos;
  }

  /** The problem {@code what} at {@link #pos}, as this reader reports it. */
  protected abstract RuntimeException error(String what);

  /** The next byte, not consumed; the end of input is an error. */
  protected final byte peek() {
    if (pos >= data.length) {
      throw error("unexpected end of input");
    }
    return data[pos];
  }

  /** Moves past white space, to the next token or the end. */
  protected final void skipWhitespace() {
    while (pos < data.length && WHITESPACE[data[pos] & 0xFF]) {
      pos++;
    }
  }

  /**
   * A varint of at most 64 bits (an over-long encoding of a small number is that number, as in
   * protobuf); {@code what} names the value in errors ("int64", "string length").
   */
  protected final long readVarint(String what) {
    int start = pos;
    long result = 0;
    for (int shift = 0; shift < 63; shift += 7) {
      if (pos >= data.length) {
        pos = start;
        throw error("truncated varint of a binary " + what);
      }
      byte b = data[pos++];
      result |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return result;
      }
    }
    // The tenth byte holds bit 63 alone.
    if (pos >= data.length) {
      pos = start;
      throw error("truncated varint of a binary " + what);
    }
    byte last = data[pos++];
    if ((last & 0xFF) > 1) {
      pos = start;
      throw error("varint of a binary " + what + " overflows 64 bits");
    }
    return result | (long) last << 63;
  }

  /** A zigzag varint: a signed number, small in magnitude small in bytes. */
  protected final long readZigzag(String what) {
    long n = readVarint(what);
    return (n >>> 1) ^ -(n & 1);
  }

  /** The 8 little-endian bytes of a binary double. */
  protected final double readBinaryDouble() {
    if (data.length - pos < 8) {
      throw error("truncated binary double: " + (data.length - pos) + " of 8 bytes");
    }
    long bits = 0;
    for (int i = 7; i >= 0; i--) {
      bits = (bits << 8) | (data[pos + i] & 0xFFL);
    }
    pos += 8;
    return Double.longBitsToDouble(bits);
  }

  /**
   * A binary string's length, checked to fit the input; {@link #pos} is then at its first byte and
   * the caller moves past the bytes.
   */
  protected final int readBinaryStringLength() {
    long length = readZigzag("string length");
    if (length < 0) {
      throw error("negative binary string length " + length);
    }
    if (length > data.length - pos) {
      throw error(
          "binary string length " + length + " exceeds the " + (data.length - pos) + " bytes left");
    }
    return (int) length;
  }

  /** A binary string's bytes, copied. */
  protected final byte[] readBinaryString() {
    int length = readBinaryStringLength();
    byte[] bytes = Arrays.copyOfRange(data, pos, pos + length);
    pos += length;
    return bytes;
  }

  /**
   * One whole YSON value at {@link #pos}, in {@link Yson}'s model, text or binary; {@link #pos} is
   * then past it.
   *
   * @throws IllegalArgumentException as {@link Yson#parse} does, with the offset in {@link #data}
   *     and the path inside the value
   */
  protected final Object readValue() {
    YsonReader reader = new YsonReader(data, pos);
    Object value = reader.readTree();
    pos = reader.pos;
    return value;
  }
}
