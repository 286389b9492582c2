package io.ytstream.types.yson;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * YSON for values, text and binary, as specified in {@code
 * yt/docs/en/_includes/user-guide/storage/yson.md}.
 *
 * <p>The value model is plain Java:
 *
 * <table>
 *   <caption>YSON values in Java</caption>
 *   <tr><th>YSON</th><th>Java</th></tr>
 *   <tr><td>entity {@code #}</td><td>{@code null}</td></tr>
 *   <tr><td>int64</td><td>{@link Long}</td></tr>
 *   <tr><td>uint64</td><td>{@link YsonUint64}</td></tr>
 *   <tr><td>double</td><td>{@link Double}</td></tr>
 *   <tr><td>boolean</td><td>{@link Boolean}</td></tr>
 *   <tr><td>string (bytes)</td><td>{@code byte[]}; the writers also take a {@link String},
 *       written as UTF-8</td></tr>
 *   <tr><td>list</td><td>{@link List}</td></tr>
 *   <tr><td>map</td><td>{@link Map} with {@link String} keys, in iteration order (the reader
 *       returns insertion-ordered maps)</td></tr>
 *   <tr><td>{@code <attributes>value}</td><td>{@link YsonAttributed}</td></tr>
 * </table>
 *
 * <p>Readers return unmodifiable lists and maps. Map and attribute keys must be valid UTF-8 (YSON
 * allows any bytes; every key YTsaurus itself produces, such as column and field names, is UTF-8);
 * empty keys and duplicate keys are rejected, as the grammar's "Key cannot be empty" requires.
 * Errors name the byte offset and the path, e.g. {@code YSON: unexpected ']' ... at byte 7 (in
 * /a/0)}. Since {@code byte[]} has identity equality, compare values with {@link #equal}.
 */
public final class Yson {

  private Yson() {}

  /**
   * Reads one YSON value, text or binary: binary YSON is the text grammar with binary scalars, so
   * each token's first byte decides how it is read, and input may mix both forms.
   *
   * @throws IllegalArgumentException naming the problem, the byte offset and the path
   */
  public static Object parse(byte[] yson) {
    return YsonReader.readNode(yson);
  }

  /** Reads one text YSON value given as a Java string (its UTF-8 bytes). */
  public static Object parse(String text) {
    return parse(text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Reads a list fragment, the form of a row stream: values separated by {@code ;}, a trailing
   * {@code ;} allowed, empty input is no values.
   */
  public static List<Object> parseListFragment(byte[] yson) {
    return YsonReader.readListFragment(yson);
  }

  /** Writes a value as binary YSON. */
  public static byte[] toBinary(Object value) {
    return YsonWriter.write(value, true);
  }

  /** Writes a value as text YSON; the result is ASCII. */
  public static String toText(Object value) {
    return new String(YsonWriter.write(value, false), StandardCharsets.US_ASCII);
  }

  /** Writes values as a binary list fragment, each followed by {@code ;}. */
  public static byte[] toBinaryListFragment(List<?> values) {
    return YsonWriter.writeListFragment(values, true);
  }

  /** Writes values as a text list fragment, each followed by {@code ;} and a newline. */
  public static String toTextListFragment(List<?> values) {
    return new String(YsonWriter.writeListFragment(values, false), StandardCharsets.US_ASCII);
  }

  /**
   * Deep equality of two values of the model: strings by content ({@code byte[]} and {@link String}
   * compare by their UTF-8 bytes), doubles as {@link Double#equals} does ({@code NaN} equals
   * itself, {@code -0.0} differs from {@code 0.0}), maps by entries in order, attributes included.
   */
  public static boolean equal(Object a, Object b) {
    if (a == null || b == null) {
      return a == b;
    }
    if (isString(a) && isString(b)) {
      return Arrays.equals(bytes(a), bytes(b));
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!equal(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      Iterator<? extends Map.Entry<?, ?>> i = x.entrySet().iterator();
      Iterator<? extends Map.Entry<?, ?>> j = y.entrySet().iterator();
      while (i.hasNext()) {
        Map.Entry<?, ?> e = i.next();
        Map.Entry<?, ?> f = j.next();
        if (!e.getKey().equals(f.getKey()) || !equal(e.getValue(), f.getValue())) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof YsonAttributed x && b instanceof YsonAttributed y) {
      return equal(x.attributes(), y.attributes()) && equal(x.value(), y.value());
    }
    return a.equals(b);
  }

  private static boolean isString(Object o) {
    return o instanceof byte[] || o instanceof String;
  }

  private static byte[] bytes(Object o) {
    return o instanceof byte[] b ? b : ((String) o).getBytes(StandardCharsets.UTF_8);
  }
}
