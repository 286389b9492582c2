package io.ytstream.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.ports.Row;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The JSON format as the reference describes it (2.1): {@code json} with {@code encode_utf8}
 * (default true: each byte of a string is one code point U+0000..U+00FF), tabular data one object
 * per line. The emulator writes no YSON; a YSON format is refused.
 */
final class WireFormat {

  static final ObjectMapper JSON = new ObjectMapper();

  private final boolean encodeUtf8;

  private WireFormat(boolean encodeUtf8) {
    this.encodeUtf8 = encodeUtf8;
  }

  static WireFormat json(boolean encodeUtf8) {
    return new WireFormat(encodeUtf8);
  }

  boolean encodeUtf8() {
    return encodeUtf8;
  }

  /** JSON with {@code encode_utf8=false}, which is what the emulator answers without a header. */
  static WireFormat plainJson() {
    return new WireFormat(false);
  }

  /**
   * Parses an {@code X-YT-Input-Format}/{@code X-YT-Output-Format} value: a JSON-encoded YSON
   * string ({@code "json"} or {@code {"$value":"json","$attributes":{"encode_utf8":false}}}) or,
   * with {@code X-YT-Header-Format: yson}, {@code <encode_utf8=%false>json}.
   */
  static WireFormat parse(String header, boolean ysonHeaders) {
    if (header == null || header.isBlank()) {
      return plainJson();
    }
    String text = header.strip();
    if (ysonHeaders) {
      String compact = text.replace(" ", "");
      if (!compact.endsWith("json")) {
        throw CommandError.badRequest("the emulator supports only the json format, got " + text);
      }
      return new WireFormat(!compact.contains("encode_utf8=%false"));
    }
    JsonNode node;
    try {
      node = JSON.readTree(text);
    } catch (IOException e) {
      throw CommandError.badRequest("cannot parse format header as JSON: " + text);
    }
    String name = node.isTextual() ? node.asText() : node.path("$value").asText("");
    if (!name.toLowerCase(Locale.ROOT).equals("json")) {
      throw CommandError.badRequest("the emulator supports only the json format, got " + text);
    }
    JsonNode encode = node.path("$attributes").path("encode_utf8");
    return new WireFormat(encode.isMissingNode() || encode.asBoolean(true));
  }

  /** Tabular input: one JSON object per line. */
  List<Row> readRows(byte[] body) {
    List<Row> rows = new ArrayList<>();
    String text = new String(body, StandardCharsets.UTF_8);
    int lineNumber = 0;
    for (String line : text.split("\n", -1)) {
      lineNumber++;
      if (line.isBlank()) {
        continue;
      }
      JsonNode node;
      try {
        node = JSON.readTree(line);
      } catch (IOException e) {
        throw CommandError.badRequest("input line " + lineNumber + " is not JSON");
      }
      if (!node.isObject()) {
        throw CommandError.badRequest("input line " + lineNumber + " is not a JSON object");
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> values = (Map<String, Object>) fromJson(node);
      rows.add(Row.of(values));
    }
    return rows;
  }

  /** Tabular output: one JSON object per line. */
  byte[] writeRows(List<Map<String, Object>> rows) {
    StringBuilder out = new StringBuilder();
    for (Map<String, Object> row : rows) {
      ObjectNode node = JSON.createObjectNode();
      row.forEach((k, v) -> node.set(k, toJson(v)));
      out.append(node.toString()).append('\n');
    }
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  Object fromJson(JsonNode node) {
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
      return encodeUtf8 ? decodeByteString(node.textValue()) : node.textValue();
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>();
      node.forEach(item -> list.add(fromJson(item)));
      return list;
    }
    Map<String, Object> map = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      map.put(field.getKey(), fromJson(field.getValue()));
    }
    return map;
  }

  JsonNode toJson(Object value) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    if (value == null) {
      return nodes.nullNode();
    }
    if (value instanceof Long l) {
      return nodes.numberNode(l);
    }
    if (value instanceof Integer i) {
      return nodes.numberNode(i.longValue());
    }
    if (value instanceof Double d) {
      return nodes.numberNode(d);
    }
    if (value instanceof Boolean b) {
      return nodes.booleanNode(b);
    }
    if (value instanceof String s) {
      return nodes.textNode(encodeUtf8 ? encodeByteString(s.getBytes(StandardCharsets.UTF_8)) : s);
    }
    if (value instanceof byte[] bytes) {
      return nodes.textNode(
          encodeUtf8 ? encodeByteString(bytes) : new String(bytes, StandardCharsets.UTF_8));
    }
    if (value instanceof List<?> list) {
      ArrayNode array = nodes.arrayNode();
      list.forEach(item -> array.add(toJson(item)));
      return array;
    }
    if (value instanceof Map<?, ?> map) {
      ObjectNode object = nodes.objectNode();
      map.forEach((k, v) -> object.set(String.valueOf(k), toJson(v)));
      return object;
    }
    return nodes.textNode(String.valueOf(value));
  }

  /** {@code encode_utf8=true}: every code point is one byte; the bytes are UTF-8 text. */
  private static String decodeByteString(String text) {
    byte[] bytes = new byte[text.length()];
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c > 0xff) {
        throw CommandError.badRequest(
            "with encode_utf8=true a string may hold only code points up to U+00FF; send"
                + " encode_utf8=false for UTF-8 text");
      }
      bytes[i] = (byte) c;
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static String encodeByteString(byte[] bytes) {
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }
}
