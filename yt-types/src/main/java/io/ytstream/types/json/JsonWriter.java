package io.ytstream.types.json;

import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes the values {@link JsonReader} produces back as JSON, in map order: compact ({@link
 * #write}) or indented for files people read and diff ({@link #writeIndented}). Non-ASCII
 * characters are written as themselves; control characters, quote and backslash are escaped.
 */
public final class JsonWriter {

  private JsonWriter() {}

  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    append(out, value);
    return out.toString();
  }

  /**
   * Writes {@code value} with two-space indentation, one map entry per line ({@code "key": value});
   * a list of scalars stays on one line ({@code [1, "a", null]}), a list holding a map or a list
   * puts one item per line. Empty maps and lists are {@code {}} and {@code []}. The layout depends
   * on the value alone, so the same value always gives the same text.
   */
  public static String writeIndented(Object value) {
    StringBuilder out = new StringBuilder();
    appendIndented(out, value, 0);
    return out.toString();
  }

  private static void appendIndented(StringBuilder out, Object value, int indent) {
    if (value instanceof Map<?, ?> map && !map.isEmpty()) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        newline(out, indent + 1);
        appendString(out, (String) entry.getKey());
        out.append(": ");
        appendIndented(out, entry.getValue(), indent + 1);
      }
      newline(out, indent);
      out.append('}');
    } else if (value instanceof List<?> list && !list.isEmpty()) {
      boolean flat = list.stream().noneMatch(v -> v instanceof Map || v instanceof List);
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          out.append(flat ? ", " : ",");
        }
        if (!flat) {
          newline(out, indent + 1);
        }
        appendIndented(out, list.get(i), indent + 1);
      }
      if (!flat) {
        newline(out, indent);
      }
      out.append(']');
    } else {
      append(out, value);
    }
  }

  private static void newline(StringBuilder out, int indent) {
    out.append('\n');
    for (int i = 0; i < indent; i++) {
      out.append("  ");
    }
  }

  public static void append(StringBuilder out, Object value) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String s) {
      appendString(out, s);
    } else if (value instanceof Boolean || value instanceof Long || value instanceof Integer) {
      out.append(value);
    } else if (value instanceof BigInteger b) {
      out.append(b);
    } else if (value instanceof Double d) {
      if (d.isNaN() || d.isInfinite()) {
        throw new IllegalArgumentException("JSON has no representation for " + d);
      }
      out.append(d);
    } else if (value instanceof Map<?, ?> map) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        appendString(out, (String) entry.getKey());
        out.append(':');
        append(out, entry.getValue());
      }
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        append(out, list.get(i));
      }
      out.append(']');
    } else {
      throw new IllegalArgumentException(
          "cannot write a " + value.getClass().getName() + " as JSON");
    }
  }

  public static void appendString(StringBuilder out, String value) {
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
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
