package io.ytstream.emulator;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ytstream.core.schema.YtType;
import io.ytstream.ports.Row;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
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
  private final boolean stringifyNanAndInfinity;

  private WireFormat(boolean encodeUtf8, boolean stringifyNanAndInfinity) {
    this.encodeUtf8 = encodeUtf8;
    this.stringifyNanAndInfinity = stringifyNanAndInfinity;
  }

  private WireFormat(boolean encodeUtf8) {
    this(encodeUtf8, false);
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
      return new WireFormat(
          !compact.contains("encode_utf8=%false"),
          compact.contains("stringify_nan_and_infinity=%true"));
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
    JsonNode stringify = node.path("$attributes").path("stringify_nan_and_infinity");
    return new WireFormat(
        encode.isMissingNode() || encode.asBoolean(true), stringify.asBoolean(false));
  }

  /**
   * Tabular input: one JSON object per line, each column read against its type ({@code types};
   * columns without a type, such as {@code $tablet_index}, are read as plain YSON values).
   * Top-level keys are column names as they are, system columns included.
   */
  List<Row> readRows(byte[] body, Map<String, YtType> types) {
    TypedJson typed = new TypedJson(encodeUtf8, stringifyNanAndInfinity);
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
      Map<String, Object> values = new LinkedHashMap<>();
      Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> field = fields.next();
        String column = typed.key(field.getKey());
        values.put(
            column,
            typed.fromYson(
                types.get(column),
                typed.toYson(field.getValue()),
                "line " + lineNumber + " column \"" + column + "\""));
      }
      rows.add(Row.of(values));
    }
    return rows;
  }

  /**
   * Tabular output: one JSON object per line, each column written as its type requires, straight to
   * a streaming generator (no tree per row; only composite values build one).
   */
  byte[] writeRows(List<Map<String, Object>> rows, Map<String, YtType> types) {
    TypedJson typed = new TypedJson(encodeUtf8, stringifyNanAndInfinity);
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(256, rows.size() * 64));
    // Column names repeat on every row: transcode each once per answer.
    Map<String, String> jsonKeys = new HashMap<>();
    try (JsonGenerator gen = JSON.getFactory().createGenerator(out)) {
      gen.setRootValueSeparator(new SerializedString("\n"));
      for (Map<String, Object> row : rows) {
        gen.writeStartObject();
        for (Map.Entry<String, Object> column : row.entrySet()) {
          gen.writeFieldName(jsonKeys.computeIfAbsent(column.getKey(), typed::jsonKey));
          typed.write(gen, types.get(column.getKey()), column.getValue());
        }
        gen.writeEndObject();
      }
      if (!rows.isEmpty()) {
        gen.writeRaw('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
