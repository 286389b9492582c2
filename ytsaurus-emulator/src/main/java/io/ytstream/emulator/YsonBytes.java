package io.ytstream.emulator;

import io.ytstream.types.yson.YsonAttributed;
import io.ytstream.types.yson.YsonUint64;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * YSON bytes exactly as the server's writers lay them out ({@code yt/yt/core/yson/writer.cpp}):
 * {@code TBufferedBinaryYsonWriter} for binary, {@code TYsonWriter} for text. Unlike a minimal
 * writer, every item inside a list, map or attribute map is followed by {@code ;} (the last one
 * too), and each row of a list fragment is followed by {@code ;} (text: {@code ;\n}). Binary
 * scalars: {@code 0x01} string (zigzag varint32 length), {@code 0x02} int64 (zigzag varint), {@code
 * 0x06} uint64 (varint), {@code 0x03} double (8 bytes little-endian), {@code 0x04}/{@code 0x05}
 * false/true, {@code #} entity. Text strings are always quoted with the writer's C escapes. Written
 * here rather than taken from {@code io.ytstream.types.yson.Yson}, whose writer omits the trailing
 * separators: clients must read both, and the emulator must send what the server sends.
 *
 * <p>Writes into a growing array of its own: an answer is written by one thread, and tabular
 * answers are millions of small writes.
 */
final class YsonBytes {

  private final boolean binary;
  private byte[] buf;
  private int size;

  YsonBytes(boolean binary, int capacity) {
    this.binary = binary;
    this.buf = new byte[Math.max(16, capacity)];
  }

  /** One structured value (a node: no separator after it). */
  static byte[] node(Object value, boolean binary) {
    YsonBytes writer = new YsonBytes(binary, 256);
    writer.value(value);
    return writer.toByteArray();
  }

  /** Rows of tabular output: a list fragment, each item ended by {@code ;} (text: and newline). */
  static byte[] listFragment(List<?> items, boolean binary) {
    YsonBytes writer = new YsonBytes(binary, 64 * items.size());
    for (Object item : items) {
      writer.value(item);
      writer.endItem();
    }
    return writer.toByteArray();
  }

  /** A string as this format writes it (binary: marker and length; text: quoted), for reuse. */
  static byte[] encodedString(byte[] bytes, boolean binary) {
    YsonBytes writer = new YsonBytes(binary, bytes.length + 8);
    writer.string(bytes);
    return writer.toByteArray();
  }

  boolean binary() {
    return binary;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(buf, size);
  }

  /** How many bytes are written: a mark for {@link #truncate}. */
  int size() {
    return size;
  }

  /** Drops what was written after {@code mark}. */
  void truncate(int mark) {
    size = mark;
  }

  /** The end of an item of a list fragment: {@code ;} (text: and a newline). */
  void endItem() {
    write(';');
    if (!binary) {
      write('\n');
    }
  }

  void write(int b) {
    if (size == buf.length) {
      grow(1);
    }
    buf[size++] = (byte) b;
  }

  /** Bytes written as they are (for example a map key from {@link #encodedString}). */
  void raw(byte[] bytes) {
    if (buf.length - size < bytes.length) {
      grow(bytes.length);
    }
    System.arraycopy(bytes, 0, buf, size, bytes.length);
    size += bytes.length;
  }

  private void grow(int more) {
    buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
  }

  /** An int64 scalar. */
  void int64(long l) {
    if (binary) {
      write(0x02);
      varint((l << 1) ^ (l >> 63));
    } else {
      ascii(Long.toString(l));
    }
  }

  /** A uint64 scalar of the given bits. */
  void uint64(long bits) {
    if (binary) {
      write(0x06);
      varint(bits);
    } else {
      ascii(Long.toUnsignedString(bits) + "u");
    }
  }

  /** The entity {@code #} (null). */
  void entity() {
    write('#');
  }

  /** A value of yt-types' YSON model (a node; lists, maps and attributes written whole). */
  void value(Object value) {
    if (value instanceof YsonAttributed attributed) {
      write('<');
      mapItems(attributed.attributes());
      write('>');
      value = attributed.value();
    }
    if (value == null) {
      entity();
    } else if (value instanceof Boolean b) {
      bool(b);
    } else if (value instanceof Long l) {
      int64(l);
    } else if (value instanceof Integer i) {
      int64(i);
    } else if (value instanceof YsonUint64 u) {
      uint64(u.bits());
    } else if (value instanceof Double d) {
      doubleValue(d);
    } else if (value instanceof byte[] bytes) {
      string(bytes);
    } else if (value instanceof String s) {
      string(s.getBytes(StandardCharsets.UTF_8));
    } else if (value instanceof List<?> list) {
      write('[');
      for (Object item : list) {
        value(item);
        write(';');
      }
      write(']');
    } else if (value instanceof Map<?, ?> map) {
      write('{');
      mapItems(map);
      write('}');
    } else {
      throw new IllegalArgumentException("cannot write a " + value.getClass() + " as YSON");
    }
  }

  /** A boolean scalar. */
  void bool(boolean b) {
    if (binary) {
      write(b ? 0x05 : 0x04);
    } else {
      ascii(b ? "%true" : "%false");
    }
  }

  private void mapItems(Map<?, ?> map) {
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      string(String.valueOf(entry.getKey()).getBytes(StandardCharsets.UTF_8));
      write('=');
      value(entry.getValue());
      write(';');
    }
  }

  /** A double scalar. */
  void doubleValue(double d) {
    if (binary) {
      write(0x03);
      long bits = Double.doubleToRawLongBits(d);
      for (int i = 0; i < 8; i++) {
        write((int) (bits >>> (8 * i)) & 0xFF);
      }
      return;
    }
    if (Double.isNaN(d)) {
      ascii("%nan");
    } else if (Double.isInfinite(d)) {
      ascii(d > 0 ? "%inf" : "%-inf");
    } else {
      // The server prints the shortest round-trip form and adds "." when it has neither "." nor
      // "e"; Java's shortest form differs in the exponent spelling (1.0E10 vs 1e+10).
      String text = Double.toString(d);
      ascii(text);
    }
  }

  /** A string scalar of these bytes. */
  void string(byte[] bytes) {
    if (binary) {
      write(0x01);
      long length = bytes.length;
      varint((length << 1) ^ (length >> 63));
      raw(bytes);
      return;
    }
    write('"');
    for (int i = 0; i < bytes.length; i++) {
      int c = bytes[i] & 0xFF;
      int next = i + 1 < bytes.length ? bytes[i + 1] & 0xFF : 0;
      escape(c, next);
    }
    write('"');
  }

  /** {@code writer.cpp}, {@code EscapeC}. */
  private void escape(int c, int next) {
    if (c == '"') {
      ascii("\\\"");
    } else if (c == '\\') {
      ascii("\\\\");
    } else if (c >= 32 && c <= 126) {
      write(c);
    } else if (c == '\r') {
      ascii("\\r");
    } else if (c == '\n') {
      ascii("\\n");
    } else if (c == '\t') {
      ascii("\\t");
    } else if (c < 8 && !(next >= '0' && next <= '7')) {
      write('\\');
      write('0' + c);
    } else if (!isHexDigit(next)) {
      write('\\');
      write('x');
      write(hexDigit(c >> 4));
      write(hexDigit(c & 0xF));
    } else {
      write('\\');
      write('0' + ((c >> 6) & 7));
      write('0' + ((c >> 3) & 7));
      write('0' + (c & 7));
    }
  }

  private static boolean isHexDigit(int c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f');
  }

  private static int hexDigit(int value) {
    return value < 10 ? '0' + value : 'A' + value - 10;
  }

  private void varint(long value) {
    if (buf.length - size < 10) {
      grow(10);
    }
    long v = value;
    while ((v & ~0x7FL) != 0) {
      buf[size++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[size++] = (byte) v;
  }

  private void ascii(String s) {
    for (int i = 0; i < s.length(); i++) {
      write(s.charAt(i));
    }
  }
}
