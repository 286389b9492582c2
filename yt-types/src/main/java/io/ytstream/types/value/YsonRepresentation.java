package io.ytstream.types.value;

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
import io.ytstream.types.yson.YsonUint64;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A row value of a type_v3 type (the form {@link YtValues} defines) and the YSON value that
 * represents it, both ways. This is the representation a column has when it travels as YSON bytes,
 * e.g. a composite column read without {@code type_v3} in Spark. It follows {@code
 * yt/docs/en/_includes/user-guide/storage/data-types.md} ("Representing compound types in formats",
 * default modes):
 *
 * <table>
 *   <caption>YSON representation by type</caption>
 *   <tr><th>type</th><th>YSON</th></tr>
 *   <tr><td>int8..int64, interval, date32, datetime64, timestamp64, interval64</td><td>int64</td></tr>
 *   <tr><td>uint8..uint64, date, datetime, timestamp</td><td>uint64</td></tr>
 *   <tr><td>float, double</td><td>double</td></tr>
 *   <tr><td>bool</td><td>boolean</td></tr>
 *   <tr><td>string, utf8, json, uuid</td><td>string (uuid: its 16 bytes)</td></tr>
 *   <tr><td>decimal(p,s)</td><td>string: the binary form ({@link DecimalBinary})</td></tr>
 *   <tr><td>yson</td><td>the value itself</td></tr>
 *   <tr><td>null, void</td><td>entity {@code #}</td></tr>
 *   <tr><td>optional&lt;T&gt;</td><td>{@code #} or T's; when T is nullable {@code [v]}</td></tr>
 *   <tr><td>list, tuple</td><td>list</td></tr>
 *   <tr><td>struct</td><td>map by member name (a positional list is read too)</td></tr>
 *   <tr><td>dict</td><td>list of {@code [key; value]} (a map with string keys is read too)</td></tr>
 *   <tr><td>variant</td><td>{@code [index; v]} or {@code [name; v]}</td></tr>
 *   <tr><td>tagged</td><td>the item's</td></tr>
 * </table>
 */
public final class YsonRepresentation {

  private YsonRepresentation() {}

  /** The YSON value representing {@code value}, a row value of {@code type}. */
  public static Object toYson(YtType type, Object value) {
    return encode(type, YtValues.normalize(type, value));
  }

  /**
   * The row value represented by a YSON value (as {@link Yson#parse} returns it), checked and in
   * canonical form.
   *
   * @throws IllegalArgumentException naming {@code where} and the path inside the value
   */
  public static Object fromYson(YtType type, Object yson, String where) {
    return YtValues.normalize(type, decode(type, yson, where), where);
  }

  private static Object encode(YtType type, Object value) {
    if (type instanceof YtTagged t) {
      return encode(t.item(), value);
    }
    if (value == null) {
      return null;
    }
    if (type instanceof YtPrimitive p) {
      return unsigned(p) ? new YsonUint64((Long) value) : value;
    }
    if (type instanceof YtDecimal d) {
      return DecimalBinary.encode(d, (BigDecimal) value);
    }
    if (type instanceof YtOptional o) {
      if (!o.item().isNullable()) {
        return encode(o.item(), value);
      }
      List<Object> wrapped = new ArrayList<>(1);
      wrapped.add(encode(o.item(), ((List<?>) value).get(0)));
      return wrapped;
    }
    if (type instanceof YtList l) {
      List<Object> out = new ArrayList<>();
      for (Object item : (List<?>) value) {
        out.add(encode(l.item(), item));
      }
      return out;
    }
    if (type instanceof YtTuple t) {
      List<?> items = (List<?>) value;
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < items.size(); i++) {
        out.add(encode(t.elements().get(i), items.get(i)));
      }
      return out;
    }
    if (type instanceof YtStruct s) {
      Map<?, ?> map = (Map<?, ?>) value;
      Map<String, Object> out = new LinkedHashMap<>();
      for (YtMember m : s.members()) {
        out.put(m.name(), encode(m.type(), map.get(m.name())));
      }
      return out;
    }
    if (type instanceof YtDict d) {
      List<Object> out = new ArrayList<>();
      for (Object entry : (List<?>) value) {
        List<?> pair = (List<?>) entry;
        out.add(pair(encode(d.key(), pair.get(0)), encode(d.value(), pair.get(1))));
      }
      return out;
    }
    if (type instanceof YtVariantTuple v) {
      List<?> pair = (List<?>) value;
      int index = ((Long) pair.get(0)).intValue();
      return pair(pair.get(0), encode(v.elements().get(index), pair.get(1)));
    }
    if (type instanceof YtVariantStruct v) {
      List<?> pair = (List<?>) value;
      for (YtMember m : v.members()) {
        if (m.name().equals(pair.get(0))) {
          return pair(m.name(), encode(m.type(), pair.get(1)));
        }
      }
    }
    throw new IllegalArgumentException("no YSON representation for " + type.describe());
  }

  private static boolean unsigned(YtPrimitive p) {
    return switch (p) {
      case UINT8, UINT16, UINT32, UINT64, DATE, DATETIME, TIMESTAMP -> true;
      default -> false;
    };
  }

  private static List<Object> pair(Object first, Object second) {
    List<Object> out = new ArrayList<>(2);
    out.add(first);
    out.add(second);
    return out;
  }

  private static Object decode(YtType type, Object yson, String where) {
    if (type instanceof YtTagged t) {
      return decode(t.item(), yson, where);
    }
    if (yson == null) {
      return null;
    }
    if (type instanceof YtPrimitive p) {
      return primitive(p, yson, where);
    }
    if (type instanceof YtDecimal d) {
      try {
        return DecimalBinary.decode(d, bytes(yson, type, where));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
      }
    }
    if (type instanceof YtOptional o) {
      if (!o.item().isNullable()) {
        return decode(o.item(), yson, where);
      }
      List<?> wrapped = list(yson, type, where);
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < wrapped.size(); i++) {
        out.add(decode(o.item(), wrapped.get(i), where + "[" + i + "]"));
      }
      return out;
    }
    if (type instanceof YtList l) {
      List<?> items = list(yson, type, where);
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < items.size(); i++) {
        out.add(decode(l.item(), items.get(i), where + "[" + i + "]"));
      }
      return out;
    }
    if (type instanceof YtTuple t) {
      List<?> items = list(yson, type, where);
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < items.size(); i++) {
        YtType element = i < t.elements().size() ? t.elements().get(i) : YtPrimitive.YSON;
        out.add(decode(element, items.get(i), where + "[" + i + "]"));
      }
      return out;
    }
    if (type instanceof YtStruct s) {
      return struct(s, yson, where);
    }
    if (type instanceof YtDict d) {
      return dict(d, yson, where);
    }
    if (type instanceof YtVariantTuple v) {
      List<?> pair = list(yson, type, where);
      if (pair.size() == 2 && index(pair.get(0)) instanceof Long index) {
        if (index >= 0 && index < v.elements().size()) {
          int i = index.intValue();
          return pair(index, decode(v.elements().get(i), pair.get(1), where + "<" + i + ">"));
        }
      }
      throw new IllegalArgumentException(
          where + ": a " + type.describe() + " value is [index; value], got " + Yson.toText(yson));
    }
    if (type instanceof YtVariantStruct v) {
      List<?> pair = list(yson, type, where);
      if (pair.size() == 2) {
        Object label = pair.get(0);
        Object index = index(label);
        for (int i = 0; i < v.members().size(); i++) {
          YtMember m = v.members().get(i);
          boolean byName = isString(label) && m.name().equals(text(label));
          if (byName || (index instanceof Long l && l == i)) {
            return pair(m.name(), decode(m.type(), pair.get(1), where + "<" + m.name() + ">"));
          }
        }
      }
      throw new IllegalArgumentException(
          where + ": a " + type.describe() + " value is [name; value], got " + Yson.toText(yson));
    }
    throw new IllegalArgumentException(where + ": unsupported type " + type.describe());
  }

  private static Object primitive(YtPrimitive type, Object yson, String where) {
    switch (type) {
      case INT8, INT16, INT32, INT64, INTERVAL, DATE32, DATETIME64, TIMESTAMP64, INTERVAL64:
        if (yson instanceof YsonUint64 u && u.bits() >= 0) {
          return u.bits();
        }
        return yson;
      case UINT8, UINT16, UINT32, UINT64, DATE, DATETIME, TIMESTAMP:
        if (yson instanceof YsonUint64 u) {
          if (type != YtPrimitive.UINT64 && u.bits() < 0) {
            throw new IllegalArgumentException(
                where + ": " + u + " is out of range for " + type.v3Name());
          }
          return u.bits();
        }
        if (yson instanceof Long l && l < 0) {
          throw new IllegalArgumentException(
              where + ": " + l + " is out of range for " + type.v3Name());
        }
        return yson;
      case FLOAT, DOUBLE:
        if (yson instanceof Long l) {
          return l.doubleValue();
        }
        if (yson instanceof YsonUint64 u) {
          return u.toBigInteger().doubleValue();
        }
        return yson;
      case UUID:
        return isString(yson) ? bytes(yson, type, where) : yson;
      default:
        return yson;
    }
  }

  private static Map<String, Object> struct(YtStruct type, Object yson, String where) {
    if (yson instanceof List<?> positional) {
      if (positional.size() > type.members().size()) {
        throw new IllegalArgumentException(
            where
                + ": "
                + type.describe()
                + " has "
                + type.members().size()
                + " members, the positional value has "
                + positional.size());
      }
      Map<String, Object> out = new LinkedHashMap<>();
      for (int i = 0; i < positional.size(); i++) {
        YtMember m = type.members().get(i);
        out.put(m.name(), decode(m.type(), positional.get(i), where + "." + m.name()));
      }
      return out;
    }
    if (!(yson instanceof Map<?, ?> map)) {
      throw new IllegalArgumentException(
          where + ": a " + type.describe() + " value is a YSON map, got " + Yson.toText(yson));
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      String name = (String) e.getKey();
      YtType memberType = YtPrimitive.YSON;
      for (YtMember m : type.members()) {
        if (m.name().equals(name)) {
          memberType = m.type();
        }
      }
      // An unknown member is kept so that normalize names it in its error.
      out.put(name, decode(memberType, e.getValue(), where + "." + name));
    }
    return out;
  }

  private static List<Object> dict(YtDict type, Object yson, String where) {
    List<Object> out = new ArrayList<>();
    if (yson instanceof Map<?, ?> map) {
      int i = 0;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        String at = where + "[" + i++ + "]";
        out.add(
            pair(
                decode(type.key(), e.getKey(), at + ".key"),
                decode(type.value(), e.getValue(), at + ".value")));
      }
      return out;
    }
    List<?> pairs = list(yson, type, where);
    for (int i = 0; i < pairs.size(); i++) {
      String at = where + "[" + i + "]";
      List<?> entry = list(pairs.get(i), type, at);
      if (entry.size() != 2) {
        throw new IllegalArgumentException(
            at + ": a dict entry is [key; value], got " + entry.size() + " elements");
      }
      out.add(
          pair(
              decode(type.key(), entry.get(0), at + ".key"),
              decode(type.value(), entry.get(1), at + ".value")));
    }
    return out;
  }

  private static Object index(Object label) {
    if (label instanceof YsonUint64 u) {
      return u.bits();
    }
    return label;
  }

  private static List<?> list(Object yson, YtType type, String where) {
    if (yson instanceof List<?> list) {
      return list;
    }
    throw new IllegalArgumentException(
        where + ": a " + type.describe() + " value is a YSON list, got " + Yson.toText(yson));
  }

  private static boolean isString(Object o) {
    return o instanceof byte[] || o instanceof String;
  }

  private static String text(Object o) {
    return o instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : (String) o;
  }

  private static byte[] bytes(Object yson, YtType type, String where) {
    if (yson instanceof byte[] b) {
      return b;
    }
    if (yson instanceof String s) {
      return s.getBytes(StandardCharsets.UTF_8);
    }
    throw new IllegalArgumentException(
        where + ": a " + type.describe() + " value is a YSON string, got " + Yson.toText(yson));
  }
}
