package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.types.yson.YsonAttributed;
import io.ytstream.types.yson.YsonUint64;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A queue producer session's {@code user_meta}, any YSON node, between the YSON value model of
 * {@link io.ytstream.types.yson.Yson} and the JSON of parameters and structured answers: map keys
 * that start with {@code $} get one more {@code $} ({@code yt/yt/core/json/json_writer.cpp}, {@code
 * json_callbacks.cpp}), attributes travel as {@code {"$attributes":..,"$value":..}}.
 */
final class UserMetaJson {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

  private UserMetaJson() {}

  static JsonNode toJson(Object value) {
    if (value == null) {
      return NODES.nullNode();
    }
    if (value instanceof Long || value instanceof Integer) {
      return NODES.numberNode(((Number) value).longValue());
    }
    if (value instanceof YsonUint64 u) {
      return NODES.numberNode(new BigInteger(Long.toUnsignedString(u.bits())));
    }
    if (value instanceof Double d) {
      return NODES.numberNode(d);
    }
    if (value instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    if (value instanceof String s) {
      return NODES.textNode(s);
    }
    if (value instanceof byte[] bytes) {
      return NODES.textNode(new String(bytes, StandardCharsets.UTF_8));
    }
    if (value instanceof List<?> list) {
      ArrayNode array = NODES.arrayNode();
      list.forEach(item -> array.add(toJson(item)));
      return array;
    }
    if (value instanceof Map<?, ?> map) {
      ObjectNode object = NODES.objectNode();
      map.forEach((k, v) -> object.set(escape(String.valueOf(k)), toJson(v)));
      return object;
    }
    if (value instanceof YsonAttributed a) {
      ObjectNode object = NODES.objectNode();
      object.set("$attributes", toJson(a.attributes()));
      object.set("$value", toJson(a.value()));
      return object;
    }
    throw new IllegalArgumentException(
        "user_meta must be a YSON value (null, Long, Double, Boolean, String, List, Map,"
            + " YsonUint64, YsonAttributed), got a "
            + value.getClass().getName());
  }

  static Object fromJson(JsonNode node) {
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
      throw new YtTransportException("user_meta holds an integer out of range: " + value, null);
    }
    if (node.isNumber()) {
      return node.doubleValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isTextual()) {
      return node.textValue();
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>();
      node.forEach(item -> list.add(fromJson(item)));
      return Collections.unmodifiableList(list);
    }
    if (node.has("$value")) {
      Object value = fromJson(node.get("$value"));
      JsonNode attributes = node.get("$attributes");
      if (attributes != null && attributes.isObject()) {
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) fromJson(attributes);
        return new YsonAttributed(map, value);
      }
      return value;
    }
    Map<String, Object> map = new LinkedHashMap<>();
    node.fields().forEachRemaining(e -> map.put(unescape(e.getKey()), fromJson(e.getValue())));
    return Collections.unmodifiableMap(map);
  }

  private static String escape(String key) {
    return key.startsWith("$") ? "$" + key : key;
  }

  private static String unescape(String key) {
    return key.startsWith("$$") ? key.substring(1) : key;
  }
}
