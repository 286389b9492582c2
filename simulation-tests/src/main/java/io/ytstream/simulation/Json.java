package io.ytstream.simulation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A small, strict JSON reader and a deterministic pretty writer for the golden vectors and traces.
 * Values are {@code Map<String,Object>} (insertion order kept), {@code List<Object>}, {@link
 * String}, {@link Long}, {@link Boolean} and {@code null}. Fractions are rejected: vectors hold
 * integers only.
 */
public final class Json {

  private final String text;
  private int pos;

  private Json(String text) {
    this.text = text;
  }

  /** Parses one document. */
  public static Object parse(String text) {
    Json json = new Json(text);
    Object value = json.value();
    json.skip();
    if (json.pos != text.length()) {
      throw json.error("text after the document");
    }
    return value;
  }

  /** Writes {@code value} with two-space indentation; objects keep their key order. */
  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(out, value, 0);
    return out.append('\n').toString();
  }

  /** Writes {@code value} on one line. */
  public static String writeCompact(Object value) {
    StringBuilder out = new StringBuilder();
    write(out, value, -1);
    return out.toString();
  }

  private static void write(StringBuilder out, Object value, int indent) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String s) {
      string(out, s);
    } else if (value instanceof Long || value instanceof Integer || value instanceof Boolean) {
      out.append(value);
    } else if (value instanceof Map<?, ?> map) {
      if (map.isEmpty()) {
        out.append("{}");
        return;
      }
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        newline(out, indent + 1);
        string(out, (String) e.getKey());
        out.append(indent < 0 ? ":" : ": ");
        write(out, e.getValue(), indent < 0 ? -1 : indent + 1);
      }
      newline(out, indent);
      out.append('}');
    } else if (value instanceof List<?> list) {
      if (list.isEmpty()) {
        out.append("[]");
        return;
      }
      boolean flat = list.stream().noneMatch(v -> v instanceof Map || v instanceof List);
      out.append('[');
      boolean first = true;
      for (Object item : list) {
        if (!first) {
          out.append(flat ? ", " : ",");
        }
        first = false;
        if (!flat) {
          newline(out, indent + 1);
        }
        write(out, item, indent < 0 ? -1 : indent + 1);
      }
      if (!flat) {
        newline(out, indent);
      }
      out.append(']');
    } else {
      throw new IllegalArgumentException("not a JSON value: " + value.getClass());
    }
  }

  private static void newline(StringBuilder out, int indent) {
    if (indent < 0) {
      return;
    }
    out.append('\n');
    for (int i = 0; i < indent; i++) {
      out.append("  ");
    }
  }

  private static void string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\t' -> out.append("\\t");
        case '\r' -> out.append("\\r");
        default -> {
          if (c < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private Object value() {
    skip();
    if (pos >= text.length()) {
      throw error("unexpected end");
    }
    char c = text.charAt(pos);
    switch (c) {
      case '{' -> {
        return object();
      }
      case '[' -> {
        return array();
      }
      case '"' -> {
        return str();
      }
      case 't' -> {
        return literal("true", Boolean.TRUE);
      }
      case 'f' -> {
        return literal("false", Boolean.FALSE);
      }
      case 'n' -> {
        return literal("null", null);
      }
      default -> {
        return number();
      }
    }
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, pos)) {
      throw error("expected " + word);
    }
    pos += word.length();
    return value;
  }

  private Map<String, Object> object() {
    pos++;
    Map<String, Object> map = new LinkedHashMap<>();
    skip();
    if (peek() == '}') {
      pos++;
      return map;
    }
    while (true) {
      skip();
      String key = str();
      skip();
      expect(':');
      if (map.put(key, value()) != null) {
        throw error("duplicate key " + key);
      }
      skip();
      char c = peek();
      pos++;
      if (c == '}') {
        return map;
      }
      if (c != ',') {
        throw error("expected , or }");
      }
    }
  }

  private List<Object> array() {
    pos++;
    List<Object> list = new ArrayList<>();
    skip();
    if (peek() == ']') {
      pos++;
      return list;
    }
    while (true) {
      list.add(value());
      skip();
      char c = peek();
      pos++;
      if (c == ']') {
        return list;
      }
      if (c != ',') {
        throw error("expected , or ]");
      }
    }
  }

  private String str() {
    expect('"');
    StringBuilder out = new StringBuilder();
    while (true) {
      char c = peek();
      pos++;
      if (c == '"') {
        return out.toString();
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char e = peek();
      pos++;
      switch (e) {
        case 'n' -> out.append('\n');
        case 't' -> out.append('\t');
        case 'r' -> out.append('\r');
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'u' -> {
          out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
          pos += 4;
        }
        default -> out.append(e);
      }
    }
  }

  private Long number() {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
      pos++;
    }
    if (pos == start) {
      throw error("unexpected character");
    }
    if (pos < text.length() && ".eE".indexOf(text.charAt(pos)) >= 0) {
      throw error("fractions are not used in vectors");
    }
    return Long.parseLong(text.substring(start, pos));
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("expected " + c);
    }
    pos++;
  }

  private char peek() {
    if (pos >= text.length()) {
      throw error("unexpected end");
    }
    return text.charAt(pos);
  }

  private void skip() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at character " + pos);
  }
}
