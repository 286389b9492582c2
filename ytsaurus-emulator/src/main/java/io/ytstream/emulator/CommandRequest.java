package io.ytstream.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.model.YPath;
import io.ytstream.types.yson.Yson;
import io.ytstream.types.yson.YsonAttributed;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * One command as the emulator received it: its parameters (merged from the query string, {@code
 * X-YT-Parameters} and, for volatile commands without input, a JSON body), the input body and the
 * formats, the proxy that received it and the user its token authenticated ({@code root} without
 * one).
 */
record CommandRequest(
    String command,
    ObjectNode parameters,
    byte[] body,
    WireFormat inputFormat,
    WireFormat outputFormat,
    int proxyIndex,
    String user) {

  Optional<JsonNode> optional(String name) {
    JsonNode node = parameters.get(name);
    return node == null || node.isNull() ? Optional.empty() : Optional.of(node);
  }

  JsonNode required(String name) {
    return optional(name)
        .orElseThrow(
            () ->
                CommandError.badRequest("Missing required parameter /" + name + " of " + command));
  }

  String string(String name) {
    JsonNode node = required(name);
    if (!node.isTextual()) {
      throw CommandError.badRequest("Parameter /" + name + " must be a string");
    }
    return node.asText();
  }

  long longValue(String name) {
    JsonNode node = required(name);
    if (node.isIntegralNumber()) {
      return node.asLong();
    }
    if (node.isTextual()) {
      try {
        return Long.parseLong(node.asText());
      } catch (NumberFormatException e) {
        // fall through
      }
    }
    throw CommandError.badRequest("Parameter /" + name + " must be an integer");
  }

  Optional<Long> optionalLong(String name) {
    return optional(name).isPresent() ? Optional.of(longValue(name)) : Optional.empty();
  }

  boolean flag(String name, boolean defaultValue) {
    Optional<JsonNode> node = optional(name);
    if (node.isEmpty()) {
      return defaultValue;
    }
    JsonNode value = node.get();
    if (value.isBoolean()) {
      return value.asBoolean();
    }
    if (value.isTextual()) {
      String text = value.asText();
      if (text.equals("true") || text.equals("%true")) {
        return true;
      }
      if (text.equals("false") || text.equals("%false")) {
        return false;
      }
    }
    throw CommandError.badRequest("Parameter /" + name + " must be a boolean");
  }

  /** The body as one structured value ({@code set}'s input), in the input format. */
  JsonNode structuredInput() {
    if (body.length == 0) {
      throw CommandError.badRequest("Missing the input value of " + command);
    }
    try {
      if (inputFormat.isYson()) {
        return ProxyHandler.ysonToJson(Yson.parse(body));
      }
      return WireFormat.JSON.readTree(body);
    } catch (IllegalArgumentException | java.io.IOException e) {
      throw CommandError.badRequest("Error parsing the input value of " + command + ": " + e);
    }
  }

  /** A path parameter; a rich YPath prefix {@code <...>} is taken off (attributes are ignored). */
  YPath path(String name) {
    return parsePath(string(name));
  }

  /** Drops {@code <attributes>} from a rich YPath, then validates it as a Cypress path. */
  static YPath parsePath(String text) {
    String value = text.strip();
    if (value.startsWith("<")) {
      int end = value.indexOf('>');
      if (end < 0) {
        throw CommandError.badRequest("Unterminated attributes in path " + text);
      }
      value = value.substring(end + 1).strip();
    }
    try {
      return YPath.of(value);
    } catch (IllegalArgumentException e) {
      throw CommandError.badRequest("Invalid path " + text + ": " + e.getMessage());
    }
  }

  /** The attributes of a rich YPath ({@code <append=%true>//path}), empty without any. */
  static Map<String, Object> pathAttributes(String text) {
    String value = text.strip();
    if (!value.startsWith("<")) {
      return Map.of();
    }
    int end = value.indexOf('>');
    if (end < 0) {
      throw CommandError.badRequest("Unterminated attributes in path " + text);
    }
    try {
      Object node =
          Yson.parse((value.substring(0, end + 1) + "#").getBytes(StandardCharsets.UTF_8));
      return node instanceof YsonAttributed attributed ? attributed.attributes() : Map.of();
    } catch (IllegalArgumentException e) {
      throw CommandError.badRequest("Invalid attributes in path " + text + ": " + e.getMessage());
    }
  }

  /** The {@code cluster} attribute of a rich YPath, if any. */
  static Optional<String> clusterOf(String text) {
    String value = text.strip();
    if (!value.startsWith("<")) {
      return Optional.empty();
    }
    String attributes = value.substring(1, Math.max(1, value.indexOf('>')));
    for (String part : attributes.split(";")) {
      String[] pair = part.split("=", 2);
      if (pair.length == 2 && pair[0].strip().equals("cluster")) {
        return Optional.of(pair[1].strip().replace("\"", ""));
      }
    }
    return Optional.empty();
  }
}
