package io.ytstream.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Attribute values between the wire's JSON tree and the in-memory cluster's plain Java values
 * ({@code String}, {@code Long}, {@code Double}, {@code Boolean}, {@code List}, {@code Map}), which
 * the cluster keeps so that its port and the emulator's {@code get} and {@code set} see one value.
 */
final class AttributeValues {

  private AttributeValues() {}

  static Object toJava(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (node.isObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      node.fields().forEachRemaining(e -> map.put(e.getKey(), toJava(e.getValue())));
      return map;
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>();
      node.forEach(item -> list.add(toJava(item)));
      return list;
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isIntegralNumber()) {
      // uint64 beyond the long range keeps its text: the cluster stores no wider number.
      return node.canConvertToLong() ? (Object) node.longValue() : node.asText();
    }
    if (node.isNumber()) {
      return node.doubleValue();
    }
    return node.asText();
  }

  static JsonNode toJson(Object value) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    if (value == null) {
      return nodes.nullNode();
    }
    if (value instanceof Map<?, ?> map) {
      ObjectNode out = nodes.objectNode();
      map.forEach((k, v) -> out.set(String.valueOf(k), toJson(v)));
      return out;
    }
    if (value instanceof List<?> list) {
      ArrayNode out = nodes.arrayNode();
      list.forEach(v -> out.add(toJson(v)));
      return out;
    }
    if (value instanceof Boolean b) {
      return nodes.booleanNode(b);
    }
    if (value instanceof Long l) {
      return nodes.numberNode(l);
    }
    if (value instanceof Double d) {
      return nodes.numberNode(d);
    }
    return nodes.textNode(String.valueOf(value));
  }
}
