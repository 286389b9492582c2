package io.ytstream.ytsaurus;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.ports.Row;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rows as tabular JSON with {@code encode_utf8=false}: one object per line (reference 2.1).
 * Integers become {@link Long}, fractions {@link Double}; strings stay UTF-8 text. A {@code byte[]}
 * value is sent as its UTF-8 text (JSON cannot carry arbitrary bytes without {@code
 * encode_utf8=true}).
 */
final class JsonRows {

  private final ObjectMapper json;

  JsonRows(ObjectMapper json) {
    this.json = json;
  }

  byte[] encode(List<Row> rows) {
    StringBuilder out = new StringBuilder();
    for (Row row : rows) {
      ObjectNode node = json.createObjectNode();
      row.asMap().forEach((column, value) -> node.set(column, toJson(column, value)));
      try {
        out.append(json.writeValueAsString(node)).append('\n');
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException("row cannot be written as JSON: " + e.getMessage(), e);
      }
    }
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  List<Map<String, Object>> decode(byte[] body) {
    List<Map<String, Object>> rows = new ArrayList<>();
    String text = new String(body, StandardCharsets.UTF_8);
    for (String line : text.split("\n", -1)) {
      if (line.isBlank()) {
        continue;
      }
      try {
        JsonNode node = json.readTree(line);
        if (!node.isObject()) {
          throw new YtTransportException("a tabular row is not a JSON object: " + line, null);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> row = (Map<String, Object>) fromJson(node);
        rows.add(row);
      } catch (IOException e) {
        throw new YtTransportException("a tabular response line is not JSON", e);
      }
    }
    return rows;
  }

  JsonNode toJson(String column, Object value) {
    if (value == null) {
      return json.nullNode();
    }
    if (value instanceof Long || value instanceof Integer || value instanceof Short) {
      return json.getNodeFactory().numberNode(((Number) value).longValue());
    }
    if (value instanceof Double || value instanceof Float) {
      return json.getNodeFactory().numberNode(((Number) value).doubleValue());
    }
    if (value instanceof Boolean b) {
      return json.getNodeFactory().booleanNode(b);
    }
    if (value instanceof String s) {
      return json.getNodeFactory().textNode(s);
    }
    if (value instanceof byte[] bytes) {
      try {
        return json.getNodeFactory()
            .textNode(
                StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes))
                    .toString());
      } catch (CharacterCodingException e) {
        throw new IllegalArgumentException(
            "column " + column + ": bytes that are not UTF-8 cannot be sent as JSON", e);
      }
    }
    if (value instanceof List<?> list) {
      ArrayNode array = json.createArrayNode();
      list.forEach(item -> array.add(toJson(column, item)));
      return array;
    }
    if (value instanceof Map<?, ?> map) {
      ObjectNode object = json.createObjectNode();
      map.forEach((k, v) -> object.set(String.valueOf(k), toJson(column, v)));
      return object;
    }
    throw new IllegalArgumentException(
        "column " + column + ": unsupported value type " + value.getClass().getName());
  }

  static Object fromJson(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (node.isIntegralNumber()) {
      return node.bigIntegerValue().longValue();
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
      return list;
    }
    if (node.has("$value") && node.size() <= 2) {
      // A YSON value with attributes, in JSON: {"$attributes":{...},"$value":...}.
      return fromJson(node.get("$value"));
    }
    Map<String, Object> map = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      map.put(field.getKey(), fromJson(field.getValue()));
    }
    return map;
  }
}
