package io.ytstream.types.json;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict reader of full JSON (RFC 8259) into plain Java values: {@link Map} (a {@link
 * LinkedHashMap} in document order, duplicate keys rejected), {@link List}, {@link String}, {@link
 * Long} (or {@link BigInteger} beyond the long range), {@link Double} (for a fraction or exponent),
 * {@link Boolean}, and Java {@code null}. Errors name the character offset and the path to the bad
 * element, e.g. {@code $.columns[2].type_v3}. Nesting is limited to {@value #MAX_DEPTH} levels so
 * hostile input cannot exhaust the stack.
 *
 * <p>It is the one JSON reader of main code outside the emulator: the schema's JSON form, the
 * {@code json} type's check, the offsets JSON and {@code starting_offsets} all read with it.
 */
public final class JsonReader {

  public static final int MAX_DEPTH = 512;

  private final String text;
  private int pos;
  private final List<Object> path = new ArrayList<>();

  private JsonReader(String text) {
    this.text = text;
  }

  /** Reads one JSON document; anything but whitespace after it is an error. */
  public static Object read(String text) {
    JsonReader reader = new JsonReader(text);
    Object value = reader.readValue();
    reader.skipWhitespace();
    if (reader.pos != text.length()) {
      throw reader.error("unexpected text after the document");
    }
    return value;
  }

  /** The path of an element in the form used by the errors: {@code $}, {@code $.a[0].b}. */
  static String pathOf(List<Object> segments) {
    StringBuilder out = new StringBuilder("$");
    for (Object segment : segments) {
      if (segment instanceof Integer index) {
        out.append('[').append(index).append(']');
      } else {
        out.append('.').append(segment);
      }
    }
    return out.toString();
  }

  private Object readValue() {
    skipWhitespace();
    if (pos >= text.length()) {
      throw error("unexpected end of input");
    }
    char c = text.charAt(pos);
    switch (c) {
      case '{':
        return readObject();
      case '[':
        return readArray();
      case '"':
        return readString();
      case 't':
        readWord("true");
        return Boolean.TRUE;
      case 'f':
        readWord("false");
        return Boolean.FALSE;
      case 'n':
        readWord("null");
        return null;
      default:
        if (c == '-' || isDigit(c)) {
          return readNumber();
        }
        throw error("unexpected character '" + c + "'");
    }
  }

  private void enter() {
    if (path.size() >= MAX_DEPTH) {
      throw error("nesting deeper than " + MAX_DEPTH + " levels");
    }
  }

  private Map<String, Object> readObject() {
    enter();
    pos++;
    Map<String, Object> result = new LinkedHashMap<>();
    skipWhitespace();
    if (peek() == '}') {
      pos++;
      return Collections.unmodifiableMap(result);
    }
    while (true) {
      skipWhitespace();
      if (peek() != '"') {
        throw error("expected a string key");
      }
      int keyStart = pos;
      String key = readString();
      if (result.containsKey(key)) {
        pos = keyStart;
        throw error("duplicate key \"" + key + "\"");
      }
      skipWhitespace();
      expect(':');
      path.add(key);
      Object value = readValue();
      path.remove(path.size() - 1);
      result.put(key, value);
      skipWhitespace();
      char c = peek();
      if (c == '}') {
        pos++;
        return Collections.unmodifiableMap(result);
      }
      if (c != ',') {
        throw error("expected ',' or '}'");
      }
      pos++;
    }
  }

  private List<Object> readArray() {
    enter();
    pos++;
    List<Object> result = new ArrayList<>();
    skipWhitespace();
    if (peek() == ']') {
      pos++;
      return Collections.unmodifiableList(result);
    }
    while (true) {
      path.add(result.size());
      result.add(readValue());
      path.remove(path.size() - 1);
      skipWhitespace();
      char c = peek();
      if (c == ']') {
        pos++;
        return Collections.unmodifiableList(result);
      }
      if (c != ',') {
        throw error("expected ',' or ']'");
      }
      pos++;
    }
  }

  private void readWord(String word) {
    if (!text.startsWith(word, pos)) {
      throw error("unexpected character '" + text.charAt(pos) + "'");
    }
    pos += word.length();
  }

  private String readString() {
    pos++;
    StringBuilder out = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw error("unterminated string");
      }
      char c = text.charAt(pos);
      if (c == '"') {
        pos++;
        return out.toString();
      }
      if (c < 0x20) {
        throw error("control character in string");
      }
      pos++;
      if (c != '\\') {
        out.append(c);
        continue;
      }
      if (pos >= text.length()) {
        throw error("unterminated escape");
      }
      char e = text.charAt(pos);
      switch (e) {
        case '"', '\\', '/' -> out.append(e);
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          if (pos + 5 > text.length()) {
            throw error("short \\u escape");
          }
          int code = 0;
          for (int i = pos + 1; i < pos + 5; i++) {
            int digit = hexValue(text.charAt(i));
            if (digit < 0) {
              throw error("bad \\u escape");
            }
            code = code * 16 + digit;
          }
          out.append((char) code);
          pos += 4;
        }
        default -> throw error("bad escape '\\" + e + "'");
      }
      pos++;
    }
  }

  private Object readNumber() {
    int start = pos;
    if (text.charAt(pos) == '-') {
      pos++;
    }
    int intStart = pos;
    skipDigits();
    if (pos == intStart) {
      throw error("expected a digit");
    }
    if (text.charAt(intStart) == '0' && pos - intStart > 1) {
      pos = intStart;
      throw error("leading zero in a number");
    }
    boolean integral = true;
    if (pos < text.length() && text.charAt(pos) == '.') {
      integral = false;
      pos++;
      int fractionStart = pos;
      skipDigits();
      if (pos == fractionStart) {
        throw error("expected a digit after the decimal point");
      }
    }
    if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
      integral = false;
      pos++;
      if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
        pos++;
      }
      int exponentStart = pos;
      skipDigits();
      if (pos == exponentStart) {
        throw error("expected a digit in the exponent");
      }
    }
    String number = text.substring(start, pos);
    if (!integral) {
      return Double.parseDouble(number);
    }
    BigInteger value = new BigInteger(number);
    return value.bitLength() < 64 ? (Object) value.longValue() : value;
  }

  private void skipDigits() {
    while (pos < text.length() && isDigit(text.charAt(pos))) {
      pos++;
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** The value of an ASCII hex digit, or -1. */
  private static int hexValue(int c) {
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

  private void expect(char c) {
    if (peek() != c) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  private char peek() {
    if (pos >= text.length()) {
      throw error("unexpected end of input");
    }
    return text.charAt(pos);
  }

  private void skipWhitespace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
        return;
      }
      pos++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(
        what + " at character " + pos + " (at " + pathOf(path) + ")");
  }
}
