package io.ytstream.types.yson;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the YSON value model ({@link Yson}) as text or binary YSON, following {@code
 * yt/docs/en/_includes/user-guide/storage/yson.md}. Text output is ASCII: strings are quoted with C
 * escapes ({@code \"}, {@code \\}, {@code \n}, {@code \r}, {@code \t}, {@code \xHH} for other bytes
 * below 0x20 or from 0x7F). Binary output writes every scalar with its marker and keeps the text
 * punctuation for lists, maps and attributes. Items are separated by {@code ;} without a trailing
 * one.
 */
final class YsonWriter {

  private final boolean binary;
  private final Buffer out = new Buffer();
  private final List<Object> path = new ArrayList<>();

  /** Map keys' UTF-8 bytes: rows of one table repeat the same few names in every row. */
  private final Map<String, byte[]> keyBytes = new HashMap<>();

  private static final int MAX_CACHED_KEYS = 1024;

  /**
   * The output: a growable array without {@code ByteArrayOutputStream}'s lock per write, which a
   * writer of many rows paid for every byte.
   */
  private static final class Buffer {

    private byte[] bytes = new byte[256];
    private int size;

    void write(int b) {
      if (size == bytes.length) {
        bytes = Arrays.copyOf(bytes, bytes.length * 2);
      }
      bytes[size++] = (byte) b;
    }

    void write(byte[] b, int offset, int length) {
      if (size + length > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + length));
      }
      System.arraycopy(b, offset, bytes, size, length);
      size += length;
    }

    byte[] toByteArray() {
      return Arrays.copyOf(bytes, size);
    }
  }

  YsonWriter(boolean binary) {
    this.binary = binary;
  }

  /** Opens item {@code index} of a list fragment as a map ({@link YsonMapListWriter}). */
  void startMapItem(int index) {
    path.add(index);
    out.write('{');
  }

  /** One entry of the open map item; {@code first} for its first entry. */
  void mapEntry(boolean first, String key, Object value) {
    if (!first) {
      out.write(';');
    }
    writeString(keyBytes(key));
    out.write('=');
    path.add(key);
    writeTree(value);
    path.remove(path.size() - 1);
  }

  /** Closes the open map item and ends it as a list fragment's item. */
  void endMapItem() {
    out.write('}');
    path.remove(path.size() - 1);
    out.write(';');
    if (!binary) {
      out.write('\n');
    }
  }

  byte[] toByteArray() {
    return out.toByteArray();
  }

  static byte[] write(Object value, boolean binary) {
    YsonWriter writer = new YsonWriter(binary);
    writer.writeTree(value);
    return writer.out.toByteArray();
  }

  static byte[] writeListFragment(List<?> items, boolean binary) {
    YsonWriter writer = new YsonWriter(binary);
    for (int i = 0; i < items.size(); i++) {
      writer.path.add(i);
      writer.writeTree(items.get(i));
      writer.path.remove(writer.path.size() - 1);
      writer.out.write(';');
      if (!binary) {
        writer.out.write('\n');
      }
    }
    return writer.out.toByteArray();
  }

  private void writeTree(Object value) {
    if (value instanceof YsonAttributed attributed) {
      out.write('<');
      writeMapBody(attributed.attributes());
      out.write('>');
      writeObject(attributed.value());
    } else {
      writeObject(value);
    }
  }

  private void writeObject(Object value) {
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
    } else if (value instanceof YsonUint64 u) {
      if (binary) {
        out.write(0x06);
        varint(u.bits());
      } else {
        ascii(u + "u");
      }
    } else if (value instanceof Double d) {
      writeDouble(d);
    } else if (value instanceof byte[] bytes) {
      writeString(bytes);
    } else if (value instanceof String s) {
      writeString(s.getBytes(StandardCharsets.UTF_8));
    } else if (value instanceof List<?> list) {
      out.write('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          out.write(';');
        }
        path.add(i);
        writeTree(list.get(i));
        path.remove(path.size() - 1);
      }
      out.write(']');
    } else if (value instanceof Map<?, ?> map) {
      out.write('{');
      writeMapBody(map);
      out.write('}');
    } else if (value instanceof YsonAttributed) {
      throw error("a value has at most one set of attributes");
    } else {
      throw error(
          "cannot write a "
              + value.getClass().getName()
              + " as YSON; use null, Boolean, Long, YsonUint64, Double, byte[], String, List, Map"
              + " or YsonAttributed");
    }
  }

  private void writeMapBody(Map<?, ?> map) {
    boolean first = true;
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      if (!(entry.getKey() instanceof String key)) {
        throw error(
            "a map or attribute key must be a String, got "
                + (entry.getKey() == null ? "null" : entry.getKey().getClass().getName()));
      }
      mapEntry(first, key, entry.getValue());
      first = false;
    }
  }

  private byte[] keyBytes(String key) {
    byte[] known = keyBytes.get(key);
    if (known == null) {
      known = key.getBytes(StandardCharsets.UTF_8);
      if (keyBytes.size() < MAX_CACHED_KEYS) {
        keyBytes.put(key, known);
      }
    }
    return known;
  }

  private void writeDouble(double d) {
    if (binary) {
      out.write(0x03);
      long bits = Double.doubleToRawLongBits(d);
      for (int i = 0; i < 8; i++) {
        out.write((int) (bits >>> (8 * i)) & 0xFF);
      }
    } else if (Double.isNaN(d)) {
      ascii("%nan");
    } else if (d == Double.POSITIVE_INFINITY) {
      ascii("%inf");
    } else if (d == Double.NEGATIVE_INFINITY) {
      ascii("%-inf");
    } else {
      // Shortest decimal that reads back to the same double; always has '.' or 'E'.
      ascii(Double.toString(d));
    }
  }

  private void writeString(byte[] bytes) {
    if (binary) {
      out.write(0x01);
      long length = bytes.length;
      varint((length << 1) ^ (length >> 63));
      out.write(bytes, 0, bytes.length);
      return;
    }
    out.write('"');
    for (byte b : bytes) {
      int v = b & 0xFF;
      switch (v) {
        case '"' -> ascii("\\\"");
        case '\\' -> ascii("\\\\");
        case '\n' -> ascii("\\n");
        case '\r' -> ascii("\\r");
        case '\t' -> ascii("\\t");
        default -> {
          if (v < 0x20 || v >= 0x7F) {
            out.write('\\');
            out.write('x');
            out.write(Character.forDigit(v >> 4, 16));
            out.write(Character.forDigit(v & 0xF, 16));
          } else {
            out.write(v);
          }
        }
      }
    }
    out.write('"');
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

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("YSON: " + what + " (at " + YsonReader.pathOf(path) + ")");
  }
}
