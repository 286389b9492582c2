package io.ytstream.emulator;

import io.ytstream.core.schema.YsonAttributed;
import io.ytstream.core.schema.YsonUint64;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
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
 * here rather than taken from {@code core.schema.Yson}, whose writer omits the trailing separators:
 * clients must read both, and the emulator must send what the server sends.
 */
final class YsonBytes {

  private final boolean binary;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  private YsonBytes(boolean binary) {
    this.binary = binary;
  }

  /** One structured value (a node: no separator after it). */
  static byte[] node(Object value, boolean binary) {
    YsonBytes writer = new YsonBytes(binary);
    writer.value(value);
    return writer.out.toByteArray();
  }

  /** Rows of tabular output: a list fragment, each item ended by {@code ;} (text: and newline). */
  static byte[] listFragment(List<?> items, boolean binary) {
    YsonBytes writer = new YsonBytes(binary);
    for (Object item : items) {
      writer.value(item);
      writer.out.write(';');
      if (!binary) {
        writer.out.write('\n');
      }
    }
    return writer.out.toByteArray();
  }

  private void value(Object value) {
    if (value instanceof YsonAttributed attributed) {
      out.write('<');
      mapItems(attributed.attributes());
      out.write('>');
      value = attributed.value();
    }
    if (value == null) {
      out.write('#');
    } else if (value instanceof Boolean b) {
      if (binary) {
        out.write(b ? 0x05 : 0x04);
      } else {
        ascii(b ? "%true" : "%false");
      }
    } else if (value instanceof Long l) {
      if (binary) {
        out.write(0x02);
        varint((l << 1) ^ (l >> 63));
      } else {
        ascii(Long.toString(l));
      }
    } else if (value instanceof Integer i) {
      value((long) i);
    } else if (value instanceof YsonUint64 u) {
      if (binary) {
        out.write(0x06);
        varint(u.bits());
      } else {
        ascii(Long.toUnsignedString(u.bits()) + "u");
      }
    } else if (value instanceof Double d) {
      doubleValue(d);
    } else if (value instanceof byte[] bytes) {
      string(bytes);
    } else if (value instanceof String s) {
      string(s.getBytes(StandardCharsets.UTF_8));
    } else if (value instanceof List<?> list) {
      out.write('[');
      for (Object item : list) {
        value(item);
        out.write(';');
      }
      out.write(']');
    } else if (value instanceof Map<?, ?> map) {
      out.write('{');
      mapItems(map);
      out.write('}');
    } else {
      throw new IllegalArgumentException("cannot write a " + value.getClass() + " as YSON");
    }
  }

  private void mapItems(Map<?, ?> map) {
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      string(String.valueOf(entry.getKey()).getBytes(StandardCharsets.UTF_8));
      out.write('=');
      value(entry.getValue());
      out.write(';');
    }
  }

  private void doubleValue(double d) {
    if (binary) {
      out.write(0x03);
      long bits = Double.doubleToRawLongBits(d);
      for (int i = 0; i < 8; i++) {
        out.write((int) (bits >>> (8 * i)) & 0xFF);
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

  private void string(byte[] bytes) {
    if (binary) {
      out.write(0x01);
      long length = bytes.length;
      varint((length << 1) ^ (length >> 63));
      out.write(bytes, 0, bytes.length);
      return;
    }
    out.write('"');
    for (int i = 0; i < bytes.length; i++) {
      int c = bytes[i] & 0xFF;
      int next = i + 1 < bytes.length ? bytes[i + 1] & 0xFF : 0;
      escape(c, next);
    }
    out.write('"');
  }

  /** {@code writer.cpp}, {@code EscapeC}. */
  private void escape(int c, int next) {
    if (c == '"') {
      ascii("\\\"");
    } else if (c == '\\') {
      ascii("\\\\");
    } else if (c >= 32 && c <= 126) {
      out.write(c);
    } else if (c == '\r') {
      ascii("\\r");
    } else if (c == '\n') {
      ascii("\\n");
    } else if (c == '\t') {
      ascii("\\t");
    } else if (c < 8 && !(next >= '0' && next <= '7')) {
      out.write('\\');
      out.write('0' + c);
    } else if (!isHexDigit(next)) {
      out.write('\\');
      out.write('x');
      out.write(hexDigit(c >> 4));
      out.write(hexDigit(c & 0xF));
    } else {
      out.write('\\');
      out.write('0' + ((c >> 6) & 7));
      out.write('0' + ((c >> 3) & 7));
      out.write('0' + (c & 7));
    }
  }

  private static boolean isHexDigit(int c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f');
  }

  private static int hexDigit(int value) {
    return value < 10 ? '0' + value : 'A' + value - 10;
  }

  private void varint(long value) {
    long v = value;
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }

  private void ascii(String s) {
    for (int i = 0; i < s.length(); i++) {
      out.write(s.charAt(i));
    }
  }
}
