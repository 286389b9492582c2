package io.ytstream.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.types.yson.Yson;
import io.ytstream.types.yson.YsonAttributed;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;

/**
 * The format of {@code X-YT-Parameters} and the format headers ({@code
 * yt/yt/server/http_proxy/formats.cpp}, {@code InferHeaderFormat}): {@code X-YT-Header-Format} is
 * read as YSON; without it, {@code json}. A {@code yson} header format is text YSON. JSON keeps its
 * default {@code encode_utf8=true}: the header's bytes are read as UTF-8 JSON, then every string is
 * decoded code point by code point into bytes ({@code yt/yt/core/misc/utf8_decoder.cpp}, {@code
 * TUtf8Transcoder::Decode}): a code point above U+00FF is refused, and plain UTF-8 text becomes the
 * wrong bytes. Clients send {@code <encode_utf8=%false>json} or YSON for non-ASCII parameters.
 *
 * @param yson whether the parameters are text YSON
 * @param encodeUtf8 for JSON, whether strings are decoded as above
 */
record HeaderFormat(boolean yson, boolean encodeUtf8) {

  static HeaderFormat parse(String header) {
    if (header == null) {
      return new HeaderFormat(false, true);
    }
    Object node;
    try {
      node = Yson.parse(header.strip().getBytes(StandardCharsets.ISO_8859_1));
    } catch (IllegalArgumentException e) {
      throw CommandError.badRequest("Unable to parse X-YT-Header-Format header: " + e.getMessage());
    }
    Map<String, Object> attributes = Map.of();
    if (node instanceof YsonAttributed attributed) {
      attributes = attributed.attributes();
      node = attributed.value();
    }
    String type = node instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : "";
    return switch (type) {
      case "yson" -> new HeaderFormat(true, false);
      case "json" -> new HeaderFormat(false, !Boolean.FALSE.equals(attributes.get("encode_utf8")));
      default ->
          throw CommandError.badRequest(
              "X-YT-Header-Format must be json or yson (with attributes), got " + header);
    };
  }

  /** A header value (response parameters) written in this format. */
  String write(JsonNode value) {
    if (yson) {
      return new String(
          YsonBytes.node(new TypedJson(false, false).toYson(value), false),
          StandardCharsets.ISO_8859_1);
    }
    return value.toString();
  }

  /** {@code X-YT-Parameters} (as the server received its bytes) read as JSON in this format. */
  JsonNode readJson(String header) {
    String text = new String(header.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    JsonNode node;
    try {
      node = WireFormat.JSON.readTree(text);
    } catch (IOException e) {
      throw CommandError.badRequest("Unable to parse parameters from headers: " + e.getMessage());
    }
    return encodeUtf8 ? decode(node) : node;
  }

  private static JsonNode decode(JsonNode node) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    if (node.isTextual()) {
      return nodes.textNode(decode(node.textValue()));
    }
    if (node.isArray()) {
      ArrayNode array = nodes.arrayNode();
      node.forEach(item -> array.add(decode(item)));
      return array;
    }
    if (node.isObject()) {
      ObjectNode object = nodes.objectNode();
      Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> field = fields.next();
        object.set(decode(field.getKey()), decode(field.getValue()));
      }
      return object;
    }
    return node;
  }

  /** Each code point is one byte; the bytes are then the text (as UTF-8) the command sees. */
  private static String decode(String text) {
    byte[] bytes = new TypedJson(true, false).stringBytes(text);
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
