package io.ytstream.types.yson;

import io.ytstream.types.text.StrictUtf8;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads YSON as specified in {@code yt/docs/en/_includes/user-guide/storage/yson.md}. Binary YSON
 * is the text grammar with binary scalars (0x01 string with a zigzag varint length, 0x02 int64 as a
 * zigzag varint, 0x03 double as 8 little-endian bytes, 0x04 false, 0x05 true, 0x06 uint64 as a
 * varint), so one reader decides by each token's first byte and reads text, binary and a mix of the
 * two. The tokens are {@link YsonLexer}'s.
 */
final class YsonReader extends YsonLexer {

  static final int MAX_DEPTH = 512;

  private final List<Object> path = new ArrayList<>();

  /**
   * A reader of the value at {@code pos}; offsets in errors count from the start of {@code data}.
   */
  YsonReader(byte[] data, int pos) {
    super(data, pos);
  }

  private YsonReader(byte[] data) {
    this(data, 0);
  }

  static Object readNode(byte[] data) {
    YsonReader reader = new YsonReader(data);
    reader.skipWhitespace();
    if (reader.pos >= data.length) {
      throw reader.error("empty input, expected a value");
    }
    Object value = reader.readTree();
    reader.skipWhitespace();
    if (reader.pos < data.length) {
      throw reader.error("unexpected " + describeByte(data[reader.pos]) + " after the value");
    }
    return value;
  }

  static List<Object> readListFragment(byte[] data) {
    YsonReader reader = new YsonReader(data);
    List<Object> items = new ArrayList<>();
    while (true) {
      reader.skipWhitespace();
      if (reader.pos >= data.length) {
        return Collections.unmodifiableList(items);
      }
      reader.path.add(items.size());
      items.add(reader.readTree());
      reader.path.remove(reader.path.size() - 1);
      reader.skipWhitespace();
      if (reader.pos >= data.length) {
        return Collections.unmodifiableList(items);
      }
      if (data[reader.pos] != ';') {
        throw reader.error("expected ';' or the end, got " + describeByte(data[reader.pos]));
      }
      reader.pos++;
    }
  }

  Object readTree() {
    skipWhitespace();
    if (peek() == '<') {
      enter();
      pos++;
      Map<String, Object> attributes = readMapFragment('>');
      skipWhitespace();
      if (pos < data.length && data[pos] == '<') {
        throw error("a value has at most one set of attributes");
      }
      return new YsonAttributed(attributes, readObject());
    }
    return readObject();
  }

  private Object readObject() {
    skipWhitespace();
    byte b = peek();
    switch (b) {
      case STRING_MARKER:
        pos++;
        return readBinaryString();
      case INT64_MARKER:
        pos++;
        return readZigzag("int64");
      case DOUBLE_MARKER:
        pos++;
        return readBinaryDouble();
      case FALSE_MARKER:
        pos++;
        return Boolean.FALSE;
      case TRUE_MARKER:
        pos++;
        return Boolean.TRUE;
      case UINT64_MARKER:
        pos++;
        return new YsonUint64(readVarint("uint64"));
      case '"':
        return readQuotedString();
      case '#':
        pos++;
        return null;
      case '%':
        return readPercentLiteral();
      case '[':
        return readList();
      case '{':
        enter();
        pos++;
        return readMapFragment('}');
      default:
        if (isDigit(b) || b == '-' || b == '+') {
          return readNumber();
        }
        if (isIdentifierStart(b)) {
          return readIdentifier();
        }
        throw error("unexpected " + describeByte(b) + ", expected a value");
    }
  }

  private List<Object> readList() {
    enter();
    pos++;
    List<Object> items = new ArrayList<>();
    while (true) {
      skipWhitespace();
      if (peek() == ']') {
        pos++;
        return Collections.unmodifiableList(items);
      }
      path.add(items.size());
      items.add(readTree());
      path.remove(path.size() - 1);
      skipWhitespace();
      byte b = peek();
      if (b == ']') {
        pos++;
        return Collections.unmodifiableList(items);
      }
      if (b != ';') {
        throw error("expected ';' or ']' in a list, got " + describeByte(b));
      }
      pos++;
    }
  }

  /** Reads {@code key=value;...} up to {@code end}, which it consumes. */
  private Map<String, Object> readMapFragment(char end) {
    Map<String, Object> result = new LinkedHashMap<>();
    String what = end == '}' ? "a map" : "attributes";
    while (true) {
      skipWhitespace();
      if (peek() == end) {
        pos++;
        return Collections.unmodifiableMap(result);
      }
      int keyStart = pos;
      String key = readKey();
      if (key.isEmpty()) {
        pos = keyStart;
        throw error("empty key in " + what);
      }
      if (result.containsKey(key)) {
        pos = keyStart;
        throw error("duplicate key \"" + key + "\" in " + what);
      }
      skipWhitespace();
      if (peek() != '=') {
        throw error("expected '=' after key \"" + key + "\", got " + describeByte(peek()));
      }
      pos++;
      path.add(key);
      result.put(key, readTree());
      path.remove(path.size() - 1);
      skipWhitespace();
      byte b = peek();
      if (b == end) {
        pos++;
        return Collections.unmodifiableMap(result);
      }
      if (b != ';') {
        throw error("expected ';' or '" + end + "' in " + what + ", got " + describeByte(b));
      }
      pos++;
    }
  }

  private String readKey() {
    byte b = peek();
    byte[] bytes;
    if (b == STRING_MARKER) {
      pos++;
      bytes = readBinaryString();
    } else if (b == '"') {
      bytes = readQuotedString();
    } else if (isIdentifierStart(b)) {
      bytes = readIdentifier();
    } else {
      throw error("expected a string key, got " + describeByte(b));
    }
    String key = StrictUtf8.decodeOrNull(bytes);
    if (key == null) {
      throw error("a map or attribute key is not valid UTF-8, which this reader does not support");
    }
    return key;
  }

  private byte[] readQuotedString() {
    int start = pos;
    pos++;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (true) {
      if (pos >= data.length) {
        pos = start;
        throw error("unterminated quoted string");
      }
      byte b = data[pos++];
      if (b == '"') {
        return out.toByteArray();
      }
      if (b != '\\') {
        out.write(b);
        continue;
      }
      if (pos >= data.length) {
        pos = start;
        throw error("unterminated quoted string");
      }
      byte e = data[pos++];
      switch (e) {
        case '"', '\\', '\'', '?' -> out.write(e);
        case 'a' -> out.write(0x07);
        case 'b' -> out.write('\b');
        case 'f' -> out.write('\f');
        case 'n' -> out.write('\n');
        case 'r' -> out.write('\r');
        case 't' -> out.write('\t');
        case 'v' -> out.write(0x0B);
        case 'x' -> {
          int value = 0;
          int digits = 0;
          while (digits < 2 && pos < data.length && hexValue(data[pos]) >= 0) {
            value = value * 16 + hexValue(data[pos++]);
            digits++;
          }
          if (digits == 0) {
            pos -= 2;
            throw error("escape \\x needs a hex digit");
          }
          out.write(value);
        }
        default -> {
          if (e < '0' || e > '7') {
            pos -= 2;
            throw error("unknown escape '\\" + (char) (e & 0xFF) + "' in a quoted string");
          }
          int value = e - '0';
          int digits = 1;
          while (digits < 3 && pos < data.length && data[pos] >= '0' && data[pos] <= '7') {
            value = value * 8 + (data[pos++] - '0');
            digits++;
          }
          if (value > 0xFF) {
            pos -= digits + 1;
            throw error("octal escape above \\377");
          }
          out.write(value);
        }
      }
    }
  }

  private byte[] readIdentifier() {
    int start = pos;
    while (pos < data.length && isIdentifierPart(data[pos])) {
      pos++;
    }
    return Arrays.copyOfRange(data, start, pos);
  }

  private Object readPercentLiteral() {
    int start = pos;
    pos++;
    int end = pos;
    while (end < data.length
        && (isIdentifierPart(data[end]) || data[end] == '+' || data[end] == '-')) {
      end++;
    }
    String word = new String(data, pos, end - pos, StandardCharsets.US_ASCII);
    Object value;
    switch (word) {
      case "true" -> value = Boolean.TRUE;
      case "false" -> value = Boolean.FALSE;
      case "nan" -> value = Double.NaN;
      case "inf", "+inf" -> value = Double.POSITIVE_INFINITY;
      case "-inf" -> value = Double.NEGATIVE_INFINITY;
      default -> {
        pos = start;
        throw error(
            "unknown literal \"%"
                + word
                + "\", expected %true, %false, %nan, %inf, %+inf or %-inf");
      }
    }
    pos = end;
    return value;
  }

  private Object readNumber() {
    int start = pos;
    if (data[pos] == '-' || data[pos] == '+') {
      pos++;
    }
    int digitsStart = pos;
    skipDigits();
    if (pos == digitsStart) {
      pos = start;
      throw error("a number needs a digit after its sign");
    }
    boolean isDouble = false;
    if (pos < data.length && data[pos] == '.') {
      isDouble = true;
      pos++;
      skipDigits();
    }
    if (pos < data.length && (data[pos] == 'e' || data[pos] == 'E')) {
      isDouble = true;
      pos++;
      if (pos < data.length && (data[pos] == '+' || data[pos] == '-')) {
        pos++;
      }
      int exponentStart = pos;
      skipDigits();
      if (pos == exponentStart) {
        throw error("a number's exponent needs a digit");
      }
    }
    boolean unsigned = false;
    if (!isDouble && pos < data.length && data[pos] == 'u') {
      unsigned = true;
      pos++;
    }
    if (pos < data.length && (isIdentifierPart(data[pos]) || data[pos] == '+')) {
      throw error("unexpected " + describeByte(data[pos]) + " in a number");
    }
    String text = new String(data, start, pos - start, StandardCharsets.US_ASCII);
    if (isDouble) {
      return Double.parseDouble(text);
    }
    if (unsigned) {
      String digits = text.substring(0, text.length() - 1);
      if (digits.startsWith("-")) {
        pos = start;
        throw error("a uint64 literal cannot be negative: " + text);
      }
      try {
        return new YsonUint64(Long.parseUnsignedLong(digits));
      } catch (NumberFormatException e) {
        pos = start;
        throw error("uint64 literal out of range [0, 2^64-1]: " + text);
      }
    }
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      pos = start;
      throw error("int64 literal out of range: " + text + " (a uint64 needs the u suffix)");
    }
  }

  private void skipDigits() {
    while (pos < data.length && isDigit(data[pos])) {
      pos++;
    }
  }

  private void enter() {
    if (path.size() >= MAX_DEPTH) {
      throw error("nesting deeper than " + MAX_DEPTH + " levels");
    }
  }

  private static boolean isDigit(byte b) {
    return b >= '0' && b <= '9';
  }

  private static boolean isIdentifierStart(byte b) {
    return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || b == '_';
  }

  private static boolean isIdentifierPart(byte b) {
    return isIdentifierStart(b) || isDigit(b) || b == '.' || b == '-';
  }

  /** The value of an ASCII hex digit, or -1. */
  private static int hexValue(byte c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }

  static String describeByte(byte b) {
    int v = b & 0xFF;
    String hex = String.format(Locale.ROOT, "0x%02x", v);
    return v >= 0x20 && v < 0x7F ? "'" + (char) v + "' (" + hex + ")" : "byte " + hex;
  }

  static String pathOf(List<Object> segments) {
    if (segments.isEmpty()) {
      return "the root";
    }
    StringBuilder out = new StringBuilder();
    for (Object segment : segments) {
      out.append('/').append(segment);
    }
    return out.toString();
  }

  @Override
  protected IllegalArgumentException error(String what) {
    return new IllegalArgumentException(
        "YSON: " + what + " at byte " + pos + " (in " + pathOf(path) + ")");
  }
}
