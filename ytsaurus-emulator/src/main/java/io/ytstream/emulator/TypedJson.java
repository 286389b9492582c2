package io.ytstream.emulator;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import io.ytstream.types.yson.YsonAttributed;
import io.ytstream.types.yson.YsonUint64;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Column values to and from the server's JSON, as the server does it: a JSON value is first read
 * into a YSON node, then checked against the column's type_v3 type; output writes the type's YSON
 * representation as JSON. The emulator's own code, written from the documentation (the HTTP adapter
 * has its own; they must agree only through the documented format):
 *
 * <ul>
 *   <li>{@code yt/docs/en/_includes/user-guide/storage/formats.md} (JSON): attributes as {@code
 *       {"$attributes":..,"$value":..}}; {@code encode_utf8} (true: one code point per byte; false:
 *       strings must be UTF-8); {@code stringify_nan_and_infinity} writes NaN and infinities as the
 *       strings {@code "nan"}, {@code "inf"}, {@code "-inf"}, and without it (or {@code
 *       support_infinity}) they are an error, as the server's {@code
 *       yt/yt/core/json/json_writer.cpp} does; on input {@code {"$type":"double","$value":"nan"}}
 *       is a double ({@code json_callbacks.cpp}), as are {@code "$type"} {@code int64}/{@code
 *       uint64}/{@code boolean}/{@code string}; a map key starting with {@code $} is written with
 *       one more {@code $} and must be sent so.
 *   <li>{@code yt/docs/en/_includes/user-guide/storage/data-types.md} ("Representing compound types
 *       in formats", YSON, default modes): optional of a non-optional as the value or null, of an
 *       optional as {@code [v]}; list and tuple as arrays; struct as an object (named mode; a
 *       positional array is accepted on input); dict as an array of {@code [key, value]}; variant
 *       as {@code [index, v]} or {@code ["name", v]}; tagged as its item; decimal as its binary
 *       string (big-endian two's complement of 4/8/16/32 bytes, top bit flipped); date, datetime,
 *       timestamp, interval (and the 64-bit ones) as integers; uuid as its 16 bytes.
 * </ul>
 *
 * <p>A JSON integer above 2^63-1 is a uint64 (the parser's unsigned callback); a uint64 column
 * value is stored as a {@code Long} holding the bits and written as an unsigned decimal.
 */
final class TypedJson {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

  private final boolean encodeUtf8;
  private final boolean stringifyNanAndInfinity;

  TypedJson(boolean encodeUtf8, boolean stringifyNanAndInfinity) {
    this.encodeUtf8 = encodeUtf8;
    this.stringifyNanAndInfinity = stringifyNanAndInfinity;
  }

  // ---- strings and keys ----

  byte[] stringBytes(String json) {
    if (!encodeUtf8) {
      return json.getBytes(StandardCharsets.UTF_8);
    }
    byte[] bytes = new byte[json.length()];
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      if (c > 0xff) {
        // yt/yt/core/misc/utf8_decoder.cpp, TUtf8Transcoder::Decode.
        throw CommandError.badRequest(
            "Unicode symbols with codes greater than 255 are not supported. Please refer to"
                + " https://wiki.yandex-team.ru/yt/userdoc/formats/#json and consider using"
                + " encode_utf8=false in format options");
      }
      bytes[i] = (byte) c;
    }
    return bytes;
  }

  String jsonString(byte[] bytes) {
    if (encodeUtf8) {
      return new String(bytes, StandardCharsets.ISO_8859_1);
    }
    String text = StrictUtf8.decodeOrNull(bytes);
    if (text == null) {
      // The server's JSON writer: yajl_gen_invalid_string (formats.md: with encode_utf8=%false
      // not all YSON strings are readable).
      throw CommandError.badRequest("Invalid UTF-8 string in JSON");
    }
    return text;
  }

  String key(String jsonKey) {
    return new String(stringBytes(jsonKey), StandardCharsets.UTF_8);
  }

  String jsonKey(String key) {
    return jsonString(key.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] utf8(Object text) {
    return text instanceof byte[] b ? b : ((String) text).getBytes(StandardCharsets.UTF_8);
  }

  // ---- JSON to a YSON node ----

  /**
   * A JSON value as the YSON node the server builds from it: Long, {@link YsonUint64}, Double,
   * Boolean, byte[], List, Map, {@link YsonAttributed}, null.
   */
  Object toYson(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (node.isIntegralNumber()) {
      BigInteger value = node.bigIntegerValue();
      if (value.bitLength() < 64) {
        return value.longValue();
      }
      if (value.signum() > 0 && value.compareTo(TWO_64) < 0) {
        return new YsonUint64(value.longValue());
      }
      throw CommandError.badRequest("Error parsing JSON: integer " + value + " is out of range");
    }
    if (node.isNumber()) {
      return node.doubleValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isTextual()) {
      return stringBytes(node.textValue());
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>();
      node.forEach(item -> list.add(toYson(item)));
      return list;
    }
    if (node.has("$value")) {
      Object value = typedScalar(node);
      JsonNode attributes = node.get("$attributes");
      if (attributes != null) {
        if (!attributes.isObject()) {
          throw CommandError.badRequest("Value of \"$attributes\" must be a map");
        }
        return new YsonAttributed(map(attributes), value);
      }
      return value;
    }
    if (node.has("$attributes")) {
      throw CommandError.badRequest("Found key \"$attributes\" without key \"$value\"");
    }
    return map(node);
  }

  private Map<String, Object> map(JsonNode node) {
    Map<String, Object> map = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      String key = field.getKey();
      if (key.startsWith("$")) {
        if (!key.startsWith("$$")) {
          throw CommandError.badRequest(
              "Key \""
                  + key
                  + "\" starts with single \"$\"; use \"$"
                  + key
                  + "\" to encode this key in JSON format");
        }
        key = key.substring(1);
      }
      map.put(key(key), toYson(field.getValue()));
    }
    return map;
  }

  private Object typedScalar(JsonNode node) {
    JsonNode value = node.get("$value");
    JsonNode type = node.get("$type");
    if (type == null) {
      return toYson(value);
    }
    if (!type.isTextual()) {
      throw CommandError.badRequest("Value of \"$type\" must be a string");
    }
    String text = value.isTextual() ? value.textValue() : null;
    try {
      switch (type.textValue()) {
        case "string":
          if (text == null) {
            throw CommandError.badRequest("Type mismatch in JSON: expected a string");
          }
          return stringBytes(text);
        case "int64":
          return text != null ? Long.parseLong(text) : toYson(value);
        case "uint64":
          if (text != null) {
            return new YsonUint64(Long.parseUnsignedLong(text));
          }
          Object number = toYson(value);
          return number instanceof Long l ? new YsonUint64(l) : number;
        case "double":
          if (text != null) {
            return switch (text) {
              case "nan" -> Double.NaN;
              case "inf", "+inf" -> Double.POSITIVE_INFINITY;
              case "-inf" -> Double.NEGATIVE_INFINITY;
              default -> Double.parseDouble(text);
            };
          }
          Object d = toYson(value);
          return d instanceof Long l ? (Object) l.doubleValue() : d;
        case "boolean":
          if ("true".equals(text)) {
            return true;
          }
          if ("false".equals(text)) {
            return false;
          }
          return toYson(value);
        default:
          throw CommandError.badRequest("Unexpected \"$type\" value \"" + type.textValue() + "\"");
      }
    } catch (NumberFormatException e) {
      throw CommandError.badRequest(
          "Cannot parse \"" + text + "\" as " + type.textValue() + ": " + e.getMessage());
    }
  }

  // ---- a YSON node to a typed column value ----

  /**
   * The column value for a YSON node under {@code type} (null type: the node as it is), in the
   * in-memory cluster's value model; the cluster then checks ranges and shapes.
   */
  Object fromYson(YtType type, Object yson, String where) {
    if (type == null) {
      return plain(yson);
    }
    if (type instanceof YtTagged t) {
      return fromYson(t.item(), yson, where);
    }
    if (yson == null) {
      return null;
    }
    if (type instanceof YtOptional o) {
      if (!o.item().isNullable()) {
        return fromYson(o.item(), yson, where);
      }
      List<?> list = list(yson, where, type);
      if (list.size() != 1) {
        throw mismatch(where, type, "a one-element list");
      }
      List<Object> out = new ArrayList<>(1);
      out.add(fromYson(o.item(), list.get(0), where + "[0]"));
      return out;
    }
    if (type instanceof YtPrimitive p) {
      return primitive(p, yson, where);
    }
    if (type instanceof YtDecimal d) {
      if (!(yson instanceof byte[] bytes)) {
        throw mismatch(where, type, "a binary decimal string");
      }
      return decodeDecimal(d, bytes, where);
    }
    if (type instanceof YtList l) {
      List<Object> out = new ArrayList<>();
      List<?> items = list(yson, where, type);
      for (int i = 0; i < items.size(); i++) {
        out.add(fromYson(l.item(), items.get(i), where + "[" + i + "]"));
      }
      return out;
    }
    if (type instanceof YtTuple t) {
      List<?> items = list(yson, where, type);
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < items.size(); i++) {
        YtType element = i < t.elements().size() ? t.elements().get(i) : null;
        out.add(fromYson(element, items.get(i), where + "[" + i + "]"));
      }
      return out;
    }
    if (type instanceof YtStruct s) {
      Map<String, Object> out = new LinkedHashMap<>();
      if (yson instanceof List<?> positional) {
        if (positional.size() > s.members().size()) {
          throw mismatch(where, type, "at most " + s.members().size() + " positional fields");
        }
        for (int i = 0; i < positional.size(); i++) {
          YtMember m = s.members().get(i);
          out.put(m.name(), fromYson(m.type(), positional.get(i), where + "." + m.name()));
        }
        return out;
      }
      if (!(yson instanceof Map<?, ?> named)) {
        throw mismatch(where, type, "a map (or a positional list)");
      }
      for (Map.Entry<?, ?> e : named.entrySet()) {
        YtType memberType = null;
        for (YtMember m : s.members()) {
          if (m.name().equals(e.getKey())) {
            memberType = m.type();
          }
        }
        out.put(
            (String) e.getKey(),
            memberType == null
                ? plain(e.getValue())
                : fromYson(memberType, e.getValue(), where + "." + e.getKey()));
      }
      return out;
    }
    if (type instanceof YtDict d) {
      List<Object> out = new ArrayList<>();
      List<?> pairs = list(yson, where, type);
      for (int i = 0; i < pairs.size(); i++) {
        List<?> pair = list(pairs.get(i), where + "[" + i + "]", type);
        if (pair.size() != 2) {
          throw mismatch(where + "[" + i + "]", type, "a [key, value] pair");
        }
        List<Object> entry = new ArrayList<>(2);
        entry.add(fromYson(d.key(), pair.get(0), where + "[" + i + "].key"));
        entry.add(fromYson(d.value(), pair.get(1), where + "[" + i + "].value"));
        out.add(entry);
      }
      return out;
    }
    if (type instanceof YtVariantTuple v) {
      List<?> pair = list(yson, where, type);
      if (pair.size() != 2 || !(pair.get(0) instanceof Long index)) {
        throw mismatch(where, type, "[index, value]");
      }
      if (index < 0 || index >= v.elements().size()) {
        throw mismatch(where, type, "an alternative index below " + v.elements().size());
      }
      List<Object> out = new ArrayList<>(2);
      out.add(index);
      out.add(fromYson(v.elements().get(index.intValue()), pair.get(1), where + "<" + index + ">"));
      return out;
    }
    if (type instanceof YtVariantStruct v) {
      List<?> pair = list(yson, where, type);
      if (pair.size() != 2) {
        throw mismatch(where, type, "[name, value]");
      }
      YtMember member = null;
      if (pair.get(0) instanceof byte[] name) {
        String text = new String(name, StandardCharsets.UTF_8);
        member = v.members().stream().filter(m -> m.name().equals(text)).findFirst().orElse(null);
      } else if (pair.get(0) instanceof Long index && index >= 0 && index < v.members().size()) {
        member = v.members().get(index.intValue()); // the positional representation
      }
      if (member == null) {
        throw mismatch(where, type, "a member name as the alternative, got " + pair.get(0));
      }
      List<Object> out = new ArrayList<>(2);
      out.add(member.name());
      out.add(fromYson(member.type(), pair.get(1), where + "<" + member.name() + ">"));
      return out;
    }
    throw mismatch(where, type, "a supported type");
  }

  private Object primitive(YtPrimitive type, Object yson, String where) {
    switch (type) {
      case INT8, INT16, INT32, INT64, INTERVAL, DATE32, DATETIME64, TIMESTAMP64, INTERVAL64 -> {
        if (yson instanceof Long) {
          return yson;
        }
        if (yson instanceof YsonUint64 u) {
          if (u.bits() < 0) {
            throw CommandError.badRequest(
                where + ": uint64 " + u + " does not fit into " + type.v3Name());
          }
          return u.bits();
        }
        throw mismatch(where, type, "an integer");
      }
      case UINT8, UINT16, UINT32, UINT64, DATE, DATETIME, TIMESTAMP -> {
        if (yson instanceof YsonUint64 u) {
          return u.bits();
        }
        if (yson instanceof Long l) {
          if (l < 0) {
            throw CommandError.badRequest(
                where + ": int64 " + l + " does not fit into " + type.v3Name());
          }
          return l;
        }
        throw mismatch(where, type, "an unsigned integer");
      }
      case FLOAT, DOUBLE -> {
        if (yson instanceof Double) {
          return yson;
        }
        throw mismatch(where, type, "a floating point number");
      }
      case BOOL -> {
        if (yson instanceof Boolean) {
          return yson;
        }
        throw mismatch(where, type, "a boolean");
      }
      case STRING, UTF8, JSON -> {
        if (yson instanceof byte[]) {
          return plain(yson);
        }
        throw mismatch(where, type, "a string");
      }
      case UUID -> {
        if (yson instanceof byte[]) {
          return yson;
        }
        throw mismatch(where, type, "a string");
      }
      case YSON -> {
        return plain(yson);
      }
      case VOID, NULL -> throw mismatch(where, type, "null");
    }
    throw mismatch(where, type, "a supported type");
  }

  /** A YSON node kept as a value of a yson column (UTF-8 bytes become text). */
  private static Object plain(Object yson) {
    if (yson instanceof byte[] bytes) {
      String text = StrictUtf8.decodeOrNull(bytes);
      return text != null ? text : bytes;
    }
    if (yson instanceof List<?> list) {
      List<Object> out = new ArrayList<>();
      list.forEach(item -> out.add(plain(item)));
      return out;
    }
    if (yson instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put((String) k, plain(v)));
      return out;
    }
    if (yson instanceof YsonAttributed a) {
      @SuppressWarnings("unchecked")
      Map<String, Object> attributes = (Map<String, Object>) plain(a.attributes());
      return new YsonAttributed(attributes, plain(a.value()));
    }
    return yson;
  }

  private static List<?> list(Object yson, String where, YtType type) {
    if (yson instanceof List<?> list) {
      return list;
    }
    throw mismatch(where, type, "a list");
  }

  private static CommandError mismatch(String where, YtType type, String expected) {
    return CommandError.badRequest(
        "Type mismatch at " + where + ": " + type.describe() + " expects " + expected);
  }

  // ---- decimal binary form (data-types.md, "Description of binary representation") ----

  static int decimalBytes(int precision) {
    return precision <= 9 ? 4 : precision <= 18 ? 8 : precision <= 38 ? 16 : 32;
  }

  static BigDecimal decodeDecimal(YtDecimal type, byte[] bytes, String where) {
    int width = decimalBytes(type.precision());
    if (bytes.length != width) {
      throw CommandError.badRequest(
          where
              + ": a "
              + type.describe()
              + " value is "
              + width
              + " bytes in binary form, got "
              + bytes.length);
    }
    byte[] copy = bytes.clone();
    copy[0] ^= (byte) 0x80;
    BigInteger unscaled = new BigInteger(copy);
    BigInteger max = BigInteger.ONE.shiftLeft(width * 8 - 1).subtract(BigInteger.ONE);
    if (unscaled.equals(max)
        || unscaled.equals(max.subtract(BigInteger.ONE))
        || unscaled.equals(max.negate().add(BigInteger.ONE))) {
      throw CommandError.badRequest(
          where + ": decimal nan/+inf/-inf are not supported by the emulator");
    }
    return new BigDecimal(unscaled, type.scale());
  }

  static byte[] encodeDecimal(YtDecimal type, BigDecimal value) {
    int width = decimalBytes(type.precision());
    byte[] twos = value.setScale(type.scale()).unscaledValue().toByteArray();
    byte[] out = new byte[width];
    byte fill = twos[0] < 0 ? (byte) 0xff : 0;
    for (int i = 0; i < width; i++) {
      int from = twos.length - width + i;
      out[i] = from < 0 ? fill : twos[from];
    }
    out[0] ^= (byte) 0x80;
    return out;
  }

  // ---- a typed column value to JSON ----

  /**
   * Writes what {@link #toJson} builds, without building it for the common scalar cases (integers,
   * finite doubles, ASCII strings); anything else is written through its tree.
   */
  void write(JsonGenerator gen, YtType type, Object value) throws IOException {
    while (value != null
        && (type instanceof YtTagged || (type instanceof YtOptional o && !o.item().isNullable()))) {
      type = type instanceof YtTagged t ? t.item() : ((YtOptional) type).item();
    }
    if (value == null) {
      gen.writeNull();
      return;
    }
    if (type == null || type instanceof YtPrimitive) {
      YtPrimitive p = (YtPrimitive) type;
      if (value instanceof Long l
          && (p == null || isPlainInteger(p) || (l >= 0 && p == YtPrimitive.UINT64))) {
        gen.writeNumber(l);
        return;
      }
      if (value instanceof Double d
          && Double.isFinite(d)
          && (p == null || p == YtPrimitive.DOUBLE || p == YtPrimitive.FLOAT)) {
        gen.writeNumber(d);
        return;
      }
      if (value instanceof String text
          && (p == null
              || p == YtPrimitive.STRING
              || p == YtPrimitive.UTF8
              || p == YtPrimitive.JSON)
          && isAscii(text)) {
        // An ASCII string's UTF-8 bytes, one code point each, are the string itself.
        gen.writeString(text);
        return;
      }
    }
    gen.writeTree(toJson(type, value));
  }

  /** Integer types whose value {@link #toJson} writes as a plain signed number. */
  private static boolean isPlainInteger(YtPrimitive type) {
    return switch (type) {
      case INT8,
          INT16,
          INT32,
          INT64,
          UINT8,
          UINT16,
          UINT32,
          DATE,
          DATETIME,
          TIMESTAMP,
          INTERVAL,
          DATE32,
          DATETIME64,
          TIMESTAMP64,
          INTERVAL64 ->
          true;
      default -> false;
    };
  }

  private static boolean isAscii(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  JsonNode toJson(YtType type, Object value) {
    if (type == null) {
      return ysonToJson(value);
    }
    if (value == null) {
      return NODES.nullNode();
    }
    if (type instanceof YtTagged t) {
      return toJson(t.item(), value);
    }
    if (type instanceof YtOptional o) {
      if (!o.item().isNullable()) {
        return toJson(o.item(), value);
      }
      ArrayNode wrapped = NODES.arrayNode();
      wrapped.add(toJson(o.item(), ((List<?>) value).get(0)));
      return wrapped;
    }
    if (type instanceof YtPrimitive p) {
      return switch (p) {
        case UINT64 -> unsigned((Long) value);
        case FLOAT, DOUBLE -> doubleNode((Double) value);
        case STRING, UTF8, JSON, UUID -> NODES.textNode(jsonString(utf8(value)));
        case YSON -> ysonToJson(value);
        default -> ysonToJson(value);
      };
    }
    if (type instanceof YtDecimal d) {
      return NODES.textNode(jsonString(encodeDecimal(d, (BigDecimal) value)));
    }
    if (type instanceof YtList l) {
      ArrayNode array = NODES.arrayNode();
      ((List<?>) value).forEach(item -> array.add(toJson(l.item(), item)));
      return array;
    }
    if (type instanceof YtTuple t) {
      ArrayNode array = NODES.arrayNode();
      List<?> items = (List<?>) value;
      for (int i = 0; i < items.size(); i++) {
        array.add(toJson(t.elements().get(i), items.get(i)));
      }
      return array;
    }
    if (type instanceof YtStruct s) {
      ObjectNode object = NODES.objectNode();
      Map<?, ?> map = (Map<?, ?>) value;
      for (YtMember m : s.members()) {
        object.set(escapedKey(m.name()), toJson(m.type(), map.get(m.name())));
      }
      return object;
    }
    if (type instanceof YtDict d) {
      ArrayNode array = NODES.arrayNode();
      for (Object entry : (List<?>) value) {
        List<?> pair = (List<?>) entry;
        ArrayNode p = array.addArray();
        p.add(toJson(d.key(), pair.get(0)));
        p.add(toJson(d.value(), pair.get(1)));
      }
      return array;
    }
    if (type instanceof YtVariantTuple v) {
      List<?> pair = (List<?>) value;
      ArrayNode array = NODES.arrayNode();
      long index = (Long) pair.get(0);
      array.add(index);
      array.add(toJson(v.elements().get((int) index), pair.get(1)));
      return array;
    }
    if (type instanceof YtVariantStruct v) {
      List<?> pair = (List<?>) value;
      String name = (String) pair.get(0);
      YtMember member = v.members().stream().filter(m -> m.name().equals(name)).findFirst().get();
      ArrayNode array = NODES.arrayNode();
      array.add(jsonString(name.getBytes(StandardCharsets.UTF_8)));
      array.add(toJson(member.type(), pair.get(1)));
      return array;
    }
    return ysonToJson(value);
  }

  private static JsonNode unsigned(long bits) {
    return bits >= 0
        ? NODES.numberNode(bits)
        : NODES.numberNode(new BigInteger(Long.toUnsignedString(bits)));
  }

  private JsonNode doubleNode(double value) {
    if (Double.isFinite(value)) {
      return NODES.numberNode(value);
    }
    if (!stringifyNanAndInfinity) {
      // yt/yt/core/json/json_writer.cpp, ENanInfinityMode::NotSupported.
      throw CommandError.badRequest(
          "Unexpected NaN or infinity encountered during JSON writing; consider using either"
              + " \"support_infinity\" or \"stringify_nan_and_infinity\" config options");
    }
    return NODES.textNode(Double.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf");
  }

  /** A map key as JSON writes it: one more {@code $} before a leading {@code $}. */
  String escapedKey(String key) {
    return jsonKey(key.startsWith("$") ? "$" + key : key);
  }

  /** A YSON value (or an untyped column value) as JSON. */
  JsonNode ysonToJson(Object value) {
    if (value == null) {
      return NODES.nullNode();
    }
    if (value instanceof Long l) {
      return NODES.numberNode(l);
    }
    if (value instanceof Integer i) {
      return NODES.numberNode(i.longValue());
    }
    if (value instanceof YsonUint64 u) {
      return unsigned(u.bits());
    }
    if (value instanceof Double d) {
      return doubleNode(d);
    }
    if (value instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    if (value instanceof String || value instanceof byte[]) {
      return NODES.textNode(jsonString(utf8(value)));
    }
    if (value instanceof List<?> list) {
      ArrayNode array = NODES.arrayNode();
      list.forEach(item -> array.add(ysonToJson(item)));
      return array;
    }
    if (value instanceof Map<?, ?> map) {
      ObjectNode object = NODES.objectNode();
      map.forEach((k, v) -> object.set(escapedKey(String.valueOf(k)), ysonToJson(v)));
      return object;
    }
    if (value instanceof YsonAttributed a) {
      ObjectNode object = NODES.objectNode();
      object.set("$attributes", ysonToJson(a.attributes()));
      object.set("$value", ysonToJson(a.value()));
      return object;
    }
    if (value instanceof BigDecimal d) {
      return NODES.textNode(d.toPlainString());
    }
    return NODES.textNode(String.valueOf(value));
  }
}
