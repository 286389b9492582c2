package io.ytstream.types.value;

import io.ytstream.types.json.JsonReader;
import io.ytstream.types.text.StrictUtf8;
import io.ytstream.types.v3.YtDecimal;
import io.ytstream.types.v3.YtDict;
import io.ytstream.types.v3.YtList;
import io.ytstream.types.v3.YtMember;
import io.ytstream.types.v3.YtOptional;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtStruct;
import io.ytstream.types.v3.YtTagged;
import io.ytstream.types.v3.YtTuple;
import io.ytstream.types.v3.YtType;
import io.ytstream.types.v3.YtVariantStruct;
import io.ytstream.types.v3.YtVariantTuple;
import io.ytstream.types.yson.Yson;
import io.ytstream.types.yson.YsonAttributed;
import io.ytstream.types.yson.YsonUint64;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Java value a row holds for each type_v3 type, checked and put in one canonical form, so every
 * adapter (in-memory, HTTP) reads back the same value for the same write. Ranges follow {@code
 * yt/docs/en/_includes/user-guide/storage/data-types.md} ("Primitive types", "Decimal"); composite
 * values mirror the documented format representation ("Representing compound types in formats").
 *
 * <table>
 *   <caption>Row values by type</caption>
 *   <tr><th>type</th><th>Java value</th></tr>
 *   <tr><td>int8..int64, uint8..uint32</td><td>{@link Long} in the type's range</td></tr>
 *   <tr><td>uint64</td><td>{@link Long} holding the 64 bits, read as unsigned ({@code -1L} is
 *       2^64-1; compare with {@link Long#compareUnsigned})</td></tr>
 *   <tr><td>date, datetime, timestamp, interval, date32, datetime64, timestamp64,
 *       interval64</td><td>{@link Long}: days, seconds or microseconds since the epoch (intervals:
 *       microseconds), in the documented range</td></tr>
 *   <tr><td>float, double</td><td>{@link Double}; a float value is rounded to 4-byte precision</td></tr>
 *   <tr><td>bool</td><td>{@link Boolean}</td></tr>
 *   <tr><td>string</td><td>{@link String} when the bytes are valid UTF-8, else {@code byte[]}
 *       (either is accepted)</td></tr>
 *   <tr><td>utf8, json</td><td>{@link String} (UTF-8 {@code byte[]} accepted); json must parse</td></tr>
 *   <tr><td>uuid</td><td>{@code byte[]} of 16 bytes (the binary form)</td></tr>
 *   <tr><td>decimal(p,s)</td><td>{@link BigDecimal} with scale s and at most p digits</td></tr>
 *   <tr><td>yson</td><td>a value of the {@link Yson} model: null, Long, {@link YsonUint64}, Double,
 *       Boolean, String/byte[] (UTF-8 bytes become String), List, Map with String keys,
 *       {@link YsonAttributed}</td></tr>
 *   <tr><td>null, void</td><td>null only</td></tr>
 *   <tr><td>optional&lt;T&gt;</td><td>null, or T's value; when T is itself nullable (e.g.
 *       optional&lt;optional&lt;T&gt;&gt;) a present value is a one-element {@link List} [v], as
 *       the formats write it</td></tr>
 *   <tr><td>list&lt;T&gt;, tuple</td><td>{@link List} (a tuple has exactly its element
 *       count)</td></tr>
 *   <tr><td>struct</td><td>{@link Map} from member name to value, in member order; an absent
 *       nullable member is null</td></tr>
 *   <tr><td>dict&lt;K,V&gt;</td><td>{@link List} of two-element lists [key, value] in order
 *       (a {@link Map} is accepted on write)</td></tr>
 *   <tr><td>variant over a tuple</td><td>two-element {@link List} [Long index, value]</td></tr>
 *   <tr><td>variant over a struct</td><td>two-element {@link List} [String name, value]</td></tr>
 *   <tr><td>tagged&lt;tag,T&gt;</td><td>T's value</td></tr>
 * </table>
 */
public final class YtValues {

  private static final long DATE_LIMIT = 49_673L;
  private static final long DATE32_MIN = -53_375_809L;
  private static final long DATE32_LIMIT = 53_375_808L;
  private static final long DAY_SECONDS = 86_400L;
  private static final long MICROS = 1_000_000L;
  private static final long INTERVAL64_MAX = 9_223_339_708_800_000_000L;

  private YtValues() {}

  /**
   * Checks {@code value} against {@code type} and returns its canonical form.
   *
   * @throws IllegalArgumentException naming the path inside the value and the problem, e.g. {@code
   *     value.items[2]: 300 is out of range for uint8 [0, 255]}
   */
  public static Object normalize(YtType type, Object value) {
    return normalize(type, value, "value");
  }

  /** As {@link #normalize(YtType, Object)}, with {@code where} naming the value in errors. */
  public static Object normalize(YtType type, Object value, String where) {
    if (type instanceof YtPrimitive p) {
      return primitive(p, value, where);
    }
    if (type instanceof YtTagged t) {
      return normalize(t.item(), value, where);
    }
    if (value == null) {
      if (type instanceof YtOptional) {
        return null;
      }
      throw new IllegalArgumentException(where + ": null is not a value of " + type.describe());
    }
    if (type instanceof YtOptional o) {
      if (!o.item().isNullable()) {
        return normalize(o.item(), value, where);
      }
      List<?> wrapped = list(value, type, where);
      if (wrapped.size() != 1) {
        throw new IllegalArgumentException(
            where
                + ": a present value of "
                + type.describe()
                + " is a one-element list [v], got "
                + wrapped.size()
                + " elements");
      }
      List<Object> out = new ArrayList<>(1);
      out.add(normalize(o.item(), wrapped.get(0), where + "[0]"));
      return Collections.unmodifiableList(out);
    }
    if (type instanceof YtDecimal d) {
      return decimal(d, value, where);
    }
    if (type instanceof YtList l) {
      List<?> items = list(value, type, where);
      List<Object> out = new ArrayList<>(items.size());
      for (int i = 0; i < items.size(); i++) {
        out.add(normalize(l.item(), items.get(i), where + "[" + i + "]"));
      }
      return Collections.unmodifiableList(out);
    }
    if (type instanceof YtTuple t) {
      List<?> items = list(value, type, where);
      if (items.size() != t.elements().size()) {
        throw new IllegalArgumentException(
            where
                + ": "
                + type.describe()
                + " has "
                + t.elements().size()
                + " elements, got "
                + items.size());
      }
      List<Object> out = new ArrayList<>(items.size());
      for (int i = 0; i < items.size(); i++) {
        out.add(normalize(t.elements().get(i), items.get(i), where + "[" + i + "]"));
      }
      return Collections.unmodifiableList(out);
    }
    if (type instanceof YtStruct s) {
      return struct(s, value, where);
    }
    if (type instanceof YtDict d) {
      return dict(d, value, where);
    }
    if (type instanceof YtVariantTuple v) {
      List<?> pair = pair(value, type, where);
      if (!(pair.get(0) instanceof Long index) || index < 0 || index >= v.elements().size()) {
        throw new IllegalArgumentException(
            where
                + ": the alternative of "
                + type.describe()
                + " must be a Long index in [0, "
                + v.elements().size()
                + "), got "
                + pair.get(0));
      }
      int i = index.intValue();
      return unmodifiablePair(
          index, normalize(v.elements().get(i), pair.get(1), where + "<" + i + ">"));
    }
    if (type instanceof YtVariantStruct v) {
      List<?> pair = pair(value, type, where);
      if (pair.get(0) instanceof String name) {
        for (YtMember member : v.members()) {
          if (member.name().equals(name)) {
            return unmodifiablePair(
                name, normalize(member.type(), pair.get(1), where + "<" + name + ">"));
          }
        }
      }
      throw new IllegalArgumentException(
          where
              + ": the alternative of "
              + type.describe()
              + " must be a member name, got "
              + pair.get(0));
    }
    throw new IllegalArgumentException(where + ": unsupported type " + type.describe());
  }

  private static List<Object> unmodifiablePair(Object first, Object second) {
    List<Object> out = new ArrayList<>(2);
    out.add(first);
    out.add(second);
    return Collections.unmodifiableList(out);
  }

  private static Object primitive(YtPrimitive type, Object value, String where) {
    if (value == null) {
      if (type.isNullable() || type == YtPrimitive.YSON) {
        return null;
      }
      throw new IllegalArgumentException(where + ": null is not a value of " + type.v3Name());
    }
    switch (type) {
      case INT8:
        return integer(type, value, where, -128, 127);
      case INT16:
        return integer(type, value, where, -32_768, 32_767);
      case INT32:
        return integer(type, value, where, Integer.MIN_VALUE, Integer.MAX_VALUE);
      case INT64:
        return integer(type, value, where, Long.MIN_VALUE, Long.MAX_VALUE);
      case UINT8:
        return integer(type, value, where, 0, 255);
      case UINT16:
        return integer(type, value, where, 0, 65_535);
      case UINT32:
        return integer(type, value, where, 0, 4_294_967_295L);
      case UINT64:
        return longValue(type, value, where);
      case DATE:
        return integer(type, value, where, 0, DATE_LIMIT - 1);
      case DATETIME:
        return integer(type, value, where, 0, DATE_LIMIT * DAY_SECONDS - 1);
      case TIMESTAMP:
        return integer(type, value, where, 0, DATE_LIMIT * DAY_SECONDS * MICROS - 1);
      case INTERVAL:
        return integer(
            type,
            value,
            where,
            1 - DATE_LIMIT * DAY_SECONDS * MICROS,
            DATE_LIMIT * DAY_SECONDS * MICROS - 1);
      case DATE32:
        return integer(type, value, where, DATE32_MIN, DATE32_LIMIT - 1);
      case DATETIME64:
        return integer(
            type, value, where, DATE32_MIN * DAY_SECONDS, DATE32_LIMIT * DAY_SECONDS - 1);
      case TIMESTAMP64:
        return integer(
            type,
            value,
            where,
            DATE32_MIN * DAY_SECONDS * MICROS,
            DATE32_LIMIT * DAY_SECONDS * MICROS - 1);
      case INTERVAL64:
        return integer(type, value, where, -INTERVAL64_MAX, INTERVAL64_MAX);
      case FLOAT:
        return (double) (float) doubleValue(type, value, where);
      case DOUBLE:
        return doubleValue(type, value, where);
      case BOOL:
        if (value instanceof Boolean) {
          return value;
        }
        throw mismatch(type, value, where);
      case STRING:
        if (value instanceof String s) {
          checkUtf16(s, type, where);
          return s;
        }
        if (value instanceof byte[] bytes) {
          String text = StrictUtf8.decodeOrNull(bytes);
          return text != null ? text : bytes.clone();
        }
        throw mismatch(type, value, where);
      case UTF8:
        return utf8Text(type, value, where);
      case JSON:
        String json = utf8Text(type, value, where);
        try {
          JsonReader.read(json);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              where + ": not valid JSON for type json: " + e.getMessage(), e);
        }
        return json;
      case UUID:
        if (value instanceof byte[] bytes && bytes.length == 16) {
          return bytes.clone();
        }
        throw new IllegalArgumentException(
            where + ": a uuid is a byte[] of 16 bytes, got " + describe(value));
      case YSON:
        return yson(value, where, 0);
      case VOID:
      case NULL:
        throw new IllegalArgumentException(
            where + ": type " + type.v3Name() + " holds only null, got " + describe(value));
    }
    throw new IllegalArgumentException(where + ": unsupported type " + type.v3Name());
  }

  private static long longValue(YtPrimitive type, Object value, String where) {
    if (value instanceof Long l) {
      return l;
    }
    throw mismatch(type, value, where);
  }

  private static Long integer(YtPrimitive type, Object value, String where, long min, long max) {
    long v = longValue(type, value, where);
    if (v < min || v > max) {
      throw new IllegalArgumentException(
          where
              + ": "
              + v
              + " is out of range for "
              + type.v3Name()
              + " ["
              + min
              + ", "
              + max
              + "]");
    }
    return v;
  }

  private static double doubleValue(YtPrimitive type, Object value, String where) {
    if (value instanceof Double d) {
      return d;
    }
    throw mismatch(type, value, where);
  }

  private static String utf8Text(YtPrimitive type, Object value, String where) {
    if (value instanceof String s) {
      checkUtf16(s, type, where);
      return s;
    }
    if (value instanceof byte[] bytes) {
      String text = StrictUtf8.decodeOrNull(bytes);
      if (text != null) {
        return text;
      }
      throw new IllegalArgumentException(
          where + ": bytes that are not valid UTF-8 are not a value of " + type.v3Name());
    }
    throw mismatch(type, value, where);
  }

  private static void checkUtf16(String s, YtPrimitive type, String where) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new IllegalArgumentException(
            where
                + ": a String with an unpaired surrogate at index "
                + i
                + " has no UTF-8 form ("
                + type.v3Name()
                + "); pass byte[]");
      }
    }
  }

  private static BigDecimal decimal(YtDecimal type, Object value, String where) {
    if (!(value instanceof BigDecimal d)) {
      throw new IllegalArgumentException(
          where + ": a " + type.describe() + " value is a BigDecimal, got " + describe(value));
    }
    BigDecimal scaled;
    try {
      scaled = d.setScale(type.scale(), RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          where + ": " + d.toPlainString() + " has more than " + type.scale() + " decimal places",
          e);
    }
    if (scaled.unscaledValue().abs().compareTo(BigInteger.TEN.pow(type.precision())) >= 0) {
      throw new IllegalArgumentException(
          where
              + ": "
              + d.toPlainString()
              + " has more than "
              + type.precision()
              + " digits for "
              + type.describe());
    }
    return scaled;
  }

  private static Map<String, Object> struct(YtStruct type, Object value, String where) {
    if (!(value instanceof Map<?, ?> map)) {
      throw new IllegalArgumentException(
          where
              + ": a "
              + type.describe()
              + " value is a Map from member name to value, got "
              + describe(value));
    }
    for (Object key : map.keySet()) {
      if (!(key instanceof String name)
          || type.members().stream().noneMatch(m -> m.name().equals(name))) {
        throw new IllegalArgumentException(
            where + ": " + type.describe() + " has no member \"" + key + "\"");
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (YtMember member : type.members()) {
      Object item = map.get(member.name());
      if (item == null && !map.containsKey(member.name()) && !member.type().isNullable()) {
        throw new IllegalArgumentException(
            where + ": member \"" + member.name() + "\" of " + type.describe() + " is missing");
      }
      out.put(member.name(), normalize(member.type(), item, where + "." + member.name()));
    }
    return Collections.unmodifiableMap(out);
  }

  private static List<Object> dict(YtDict type, Object value, String where) {
    List<Object> out = new ArrayList<>();
    if (value instanceof Map<?, ?> map) {
      int i = 0;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        out.add(dictEntry(type, e.getKey(), e.getValue(), where + "[" + i++ + "]"));
      }
    } else if (value instanceof List<?> pairs) {
      for (int i = 0; i < pairs.size(); i++) {
        List<?> pair = pair(pairs.get(i), type, where + "[" + i + "]");
        out.add(dictEntry(type, pair.get(0), pair.get(1), where + "[" + i + "]"));
      }
    } else {
      throw new IllegalArgumentException(
          where
              + ": a "
              + type.describe()
              + " value is a List of [key, value] lists (or a Map), got "
              + describe(value));
    }
    return Collections.unmodifiableList(out);
  }

  private static List<Object> dictEntry(YtDict type, Object key, Object value, String where) {
    return unmodifiablePair(
        normalize(type.key(), key, where + ".key"),
        normalize(type.value(), value, where + ".value"));
  }

  private static List<?> list(Object value, YtType type, String where) {
    if (value instanceof List<?> list) {
      return list;
    }
    throw new IllegalArgumentException(
        where + ": a " + type.describe() + " value is a List, got " + describe(value));
  }

  private static List<?> pair(Object value, YtType type, String where) {
    List<?> list = list(value, type, where);
    if (list.size() != 2) {
      throw new IllegalArgumentException(
          where
              + ": a "
              + type.describe()
              + " value here is a two-element list, got "
              + list.size()
              + " elements");
    }
    return list;
  }

  private static Object yson(Object value, String where, int depth) {
    if (depth > 512) {
      throw new IllegalArgumentException(where + ": YSON value nested deeper than 512");
    }
    if (value == null
        || value instanceof Long
        || value instanceof YsonUint64
        || value instanceof Double
        || value instanceof Boolean) {
      return value;
    }
    if (value instanceof String s) {
      checkUtf16(s, YtPrimitive.YSON, where);
      return s;
    }
    if (value instanceof byte[] bytes) {
      String text = StrictUtf8.decodeOrNull(bytes);
      return text != null ? text : bytes.clone();
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (int i = 0; i < list.size(); i++) {
        out.add(yson(list.get(i), where + "[" + i + "]", depth + 1));
      }
      return Collections.unmodifiableList(out);
    }
    if (value instanceof Map<?, ?> map) {
      return ysonMap(map, where, depth);
    }
    if (value instanceof YsonAttributed a) {
      @SuppressWarnings("unchecked")
      Map<String, Object> attributes = (Map<String, Object>) ysonMap(a.attributes(), where, depth);
      return new YsonAttributed(attributes, yson(a.value(), where + ".$value", depth + 1));
    }
    throw new IllegalArgumentException(
        where + ": " + describe(value) + " is not a YSON value (see Yson for the value model)");
  }

  private static Map<String, Object> ysonMap(Map<?, ?> map, String where, int depth) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (!(e.getKey() instanceof String key) || key.isEmpty()) {
        throw new IllegalArgumentException(
            where + ": YSON map keys are non-empty Strings, got " + describe(e.getKey()));
      }
      out.put(key, yson(e.getValue(), where + "." + key, depth + 1));
    }
    return Collections.unmodifiableMap(out);
  }

  private static IllegalArgumentException mismatch(YtPrimitive type, Object value, String where) {
    return new IllegalArgumentException(
        where + ": " + describe(value) + " is not a value of type " + type.v3Name());
  }

  private static String describe(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof byte[] bytes) {
      return "byte[" + bytes.length + "]";
    }
    return value.getClass().getSimpleName() + " " + value;
  }
}
