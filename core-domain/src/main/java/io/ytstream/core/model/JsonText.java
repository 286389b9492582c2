package io.ytstream.core.model;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A strict reader for the small JSON subset used by core's serialized state: objects, strings and
 * integers. Anything else (arrays, floats, booleans, null, trailing text, duplicate keys) is an
 * error. Kept here because core-domain has no dependencies.
 */
final class JsonText {

  private final String text;
  private int pos;

  JsonText(String text) {
    this.text = text;
  }

  Object readDocument() {
    Object value = readValue();
    skipWhitespace();
    if (pos != text.length()) {
      throw error("unexpected text after the document");
    }
    return value;
  }

  private Object readValue() {
    skipWhitespace();
    if (pos >= text.length()) {
      throw error("unexpected end of input");
    }
    char c = text.charAt(pos);
    if (c == '{') {
      return readObject();
    }
    if (c == '"') {
      return readString();
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      return readInteger();
    }
    throw error("unexpected character '" + c + "'");
  }

  private Map<String, Object> readObject() {
    expect('{');
    Map<String, Object> result = new LinkedHashMap<>();
    skipWhitespace();
    if (peek() == '}') {
      pos++;
      return result;
    }
    while (true) {
      skipWhitespace();
      if (peek() != '"') {
        throw error("expected a string key");
      }
      String key = readString();
      skipWhitespace();
      expect(':');
      Object value = readValue();
      if (result.put(key, value) != null) {
        throw error("duplicate key \"" + key + "\"");
      }
      skipWhitespace();
      char c = peek();
      pos++;
      if (c == '}') {
        return result;
      }
      if (c != ',') {
        pos--;
        throw error("expected ',' or '}'");
      }
    }
  }

  private String readString() {
    expect('"');
    StringBuilder out = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw error("unterminated string");
      }
      char c = text.charAt(pos++);
      if (c == '"') {
        return out.toString();
      }
      if (c < 0x20) {
        pos--;
        throw error("control character in string");
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      if (pos >= text.length()) {
        throw error("unterminated escape");
      }
      char e = text.charAt(pos++);
      switch (e) {
        case '"', '\\', '/' -> out.append(e);
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          if (pos + 4 > text.length()) {
            throw error("short \\u escape");
          }
          int code = 0;
          for (int i = pos; i < pos + 4; i++) {
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
    }
  }

  private Long readInteger() {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    int digitsStart = pos;
    while (pos < text.length() && isAsciiDigit(text.charAt(pos))) {
      pos++;
    }
    if (pos == digitsStart) {
      throw error("expected digits");
    }
    if (pos < text.length()
        && (text.charAt(pos) == '.' || text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
      throw error("expected an integer, got a fraction or exponent");
    }
    if (text.charAt(digitsStart) == '0' && pos - digitsStart > 1) {
      throw error("leading zero in a number");
    }
    try {
      return Long.parseLong(text.substring(start, pos));
    } catch (NumberFormatException e) {
      throw error("integer out of range");
    }
  }

  private static boolean isAsciiDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** The value of an ASCII hex digit, or -1. */
  private static int hexValue(char c) {
    if (isAsciiDigit(c)) {
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
    return new IllegalArgumentException(what + " at character " + pos);
  }

  static void appendString(StringBuilder out, String value) {
    out.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
