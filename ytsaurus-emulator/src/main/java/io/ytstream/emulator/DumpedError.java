package io.ytstream.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;

/**
 * The bytes a proxy appends to a streamed body with {@code dump_error_into_response=true} ({@code
 * yt/yt/server/http_proxy/context.cpp}, {@code DumpError}): a newline, a delimiter line of 80
 * {@code =} between newlines, the error as pretty JSON, the delimiter again. Pretty JSON is yajl's
 * beautified output (four-space indent, {@code ": "} after keys, a newline after the value, empty
 * containers as an opening and a closing line with an empty line between), as the JSON writer
 * configures it ({@code yt/yt/core/json/json_writer.cpp}: beautify, final newline kept).
 */
final class DumpedError {

  static final String DELIMITER = "\n" + "=".repeat(80) + "\n";

  private DumpedError() {}

  static byte[] of(JsonNode error) {
    StringBuilder out = new StringBuilder("\n").append(DELIMITER);
    pretty(out, error, 0);
    out.append('\n');
    out.append(DELIMITER);
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void indent(StringBuilder out, int depth) {
    out.append("    ".repeat(depth));
  }

  private static void pretty(StringBuilder out, JsonNode node, int depth) {
    if (node.isObject()) {
      out.append("{\n");
      Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
      boolean first = true;
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> field = fields.next();
        if (!first) {
          out.append(",\n");
        }
        first = false;
        indent(out, depth + 1);
        out.append(scalar(WireFormat.JSON.getNodeFactory().textNode(field.getKey())));
        out.append(": ");
        pretty(out, field.getValue(), depth + 1);
      }
      out.append('\n');
      indent(out, depth);
      out.append('}');
    } else if (node.isArray()) {
      out.append("[\n");
      for (int i = 0; i < node.size(); i++) {
        if (i > 0) {
          out.append(",\n");
        }
        indent(out, depth + 1);
        pretty(out, node.get(i), depth + 1);
      }
      out.append('\n');
      indent(out, depth);
      out.append(']');
    } else {
      out.append(scalar(node));
    }
  }

  private static String scalar(JsonNode node) {
    try {
      return WireFormat.JSON.writeValueAsString(node);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
