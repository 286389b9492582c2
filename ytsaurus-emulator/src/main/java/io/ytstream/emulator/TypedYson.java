package io.ytstream.emulator;

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
import io.ytstream.types.yson.YsonAttributed;
import io.ytstream.types.yson.YsonUint64;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A column value (the in-memory cluster's model) as the YSON node a proxy writes for it: the
 * unversioned value's type decides the scalar ({@code uint8..uint64}, {@code date}, {@code
 * datetime}, {@code timestamp} are YSON uint64; other integers int64), composite types follow
 * {@code yt/docs/en/_includes/user-guide/storage/data-types.md} in the default modes (struct as a
 * map, dict as {@code [[k;v];...]}, variants as {@code [index_or_name; v]}, decimal as its binary
 * string). The JSON side of the same rules is {@link TypedJson#toJson}; YSON keys are written as
 * they are (no {@code $} escaping).
 */
final class TypedYson {

  private TypedYson() {}

  /** The YSON node for {@code value} of {@code type} (null type: the value as a plain node). */
  static Object toYson(YtType type, Object value) {
    if (value == null) {
      return null;
    }
    if (type == null) {
      return plain(value);
    }
    if (type instanceof YtTagged t) {
      return toYson(t.item(), value);
    }
    if (type instanceof YtOptional o) {
      if (!o.item().isNullable()) {
        return toYson(o.item(), value);
      }
      List<Object> wrapped = new ArrayList<>(1);
      wrapped.add(toYson(o.item(), ((List<?>) value).get(0)));
      return wrapped;
    }
    if (type instanceof YtPrimitive p) {
      return switch (p) {
        case UINT8, UINT16, UINT32, UINT64, DATE, DATETIME, TIMESTAMP ->
            new YsonUint64(((Number) value).longValue());
        case INT8, INT16, INT32, INT64, INTERVAL, DATE32, DATETIME64, TIMESTAMP64, INTERVAL64 ->
            ((Number) value).longValue();
        case STRING, UTF8, JSON, UUID -> bytes(value);
        default -> plain(value);
      };
    }
    if (type instanceof YtDecimal d) {
      return TypedJson.encodeDecimal(d, (BigDecimal) value);
    }
    if (type instanceof YtList l) {
      List<Object> out = new ArrayList<>();
      ((List<?>) value).forEach(item -> out.add(toYson(l.item(), item)));
      return out;
    }
    if (type instanceof YtTuple t) {
      List<?> items = (List<?>) value;
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < items.size(); i++) {
        out.add(toYson(t.elements().get(i), items.get(i)));
      }
      return out;
    }
    if (type instanceof YtStruct s) {
      Map<?, ?> map = (Map<?, ?>) value;
      Map<String, Object> out = new LinkedHashMap<>();
      for (YtMember m : s.members()) {
        out.put(m.name(), toYson(m.type(), map.get(m.name())));
      }
      return out;
    }
    if (type instanceof YtDict d) {
      List<Object> out = new ArrayList<>();
      for (Object entry : (List<?>) value) {
        List<?> pair = (List<?>) entry;
        List<Object> p = new ArrayList<>(2);
        p.add(toYson(d.key(), pair.get(0)));
        p.add(toYson(d.value(), pair.get(1)));
        out.add(p);
      }
      return out;
    }
    if (type instanceof YtVariantTuple v) {
      List<?> pair = (List<?>) value;
      long index = (Long) pair.get(0);
      List<Object> out = new ArrayList<>(2);
      out.add(index);
      out.add(toYson(v.elements().get((int) index), pair.get(1)));
      return out;
    }
    if (type instanceof YtVariantStruct v) {
      List<?> pair = (List<?>) value;
      String name = (String) pair.get(0);
      YtMember member = v.members().stream().filter(m -> m.name().equals(name)).findFirst().get();
      List<Object> out = new ArrayList<>(2);
      out.add(name.getBytes(StandardCharsets.UTF_8));
      out.add(toYson(member.type(), pair.get(1)));
      return out;
    }
    return plain(value);
  }

  private static byte[] bytes(Object text) {
    return text instanceof byte[] b ? b : ((String) text).getBytes(StandardCharsets.UTF_8);
  }

  /** An untyped value (a system column, a yson column's content) in the YSON model. */
  static Object plain(Object value) {
    if (value == null
        || value instanceof Long
        || value instanceof YsonUint64
        || value instanceof Double
        || value instanceof Boolean
        || value instanceof byte[]) {
      return value;
    }
    if (value instanceof Integer i) {
      return i.longValue();
    }
    if (value instanceof String s) {
      return s.getBytes(StandardCharsets.UTF_8);
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      list.forEach(item -> out.add(plain(item)));
      return out;
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(String.valueOf(k), plain(v)));
      return out;
    }
    if (value instanceof YsonAttributed a) {
      @SuppressWarnings("unchecked")
      Map<String, Object> attributes = (Map<String, Object>) plain(a.attributes());
      return new YsonAttributed(attributes, plain(a.value()));
    }
    if (value instanceof BigDecimal d) {
      return d.toPlainString().getBytes(StandardCharsets.US_ASCII);
    }
    return String.valueOf(value).getBytes(StandardCharsets.UTF_8);
  }
}
