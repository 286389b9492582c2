package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Turns a failed response into a {@link YtHttpException}: the error JSON is taken from the body,
 * else from the {@code X-YT-Error} header; {@code inner_errors} are searched recursively for codes
 * (the top-level code is often a generic wrapper: {@code yt/yt/server/http_proxy/context.cpp}).
 */
final class ErrorParser {

  private static final int MAX_MESSAGE_DEPTH = 8;

  private static final List<Integer> AUTHENTICATION_CODES = List.of(109, 111, 900);

  private final ObjectMapper json;

  ErrorParser(ObjectMapper json) {
    this.json = json;
  }

  YtHttpException parse(
      String command,
      URI proxy,
      int status,
      byte[] body,
      Optional<String> errorHeader,
      OAuthToken token) {
    JsonNode error = readError(body).or(() -> errorHeader.flatMap(this::readError)).orElse(null);
    List<Integer> inner = new ArrayList<>();
    int code;
    String message;
    Optional<AccessDenial> denial = Optional.empty();
    if (error != null) {
      denial = AccessDenial.find(error);
      code = error.path("code").asInt(status);
      collectInnerCodes(error, inner);
      message = describe(error, 0);
    } else {
      code = status;
      String text = new String(body, StandardCharsets.UTF_8).strip();
      message =
          "HTTP "
              + status
              + (text.isEmpty()
                  ? ""
                  : ": " + (text.length() > 300 ? text.substring(0, 300) + "..." : text));
    }
    if ((status == 401 || status == 429 || status == 503) && code != status) {
      inner.add(status);
    }
    String safe =
        isAuthentication(status, code, inner)
            ? command
                + " to "
                + proxy
                + " was refused: the proxy did not accept the credentials (HTTP "
                + status
                + ", code "
                + code
                + "): "
                + message
                + "; give a valid token in yt.token, YT_TOKEN or ~/.yt/token"
            : denial.isPresent()
                ? denial.get().describe(command, "on a node it uses", message)
                : command + " failed: " + message;
    if (token != null) {
      safe = token.redact(safe);
      message = token.redact(message);
    }
    return new YtHttpException(code, safe, inner, status, command, denial, message);
  }

  /**
   * HTTP 401, or the authentication codes of {@code yt/yt/core/rpc/public.h} (109
   * AuthenticationError, 111 InvalidCredentials; {@code http_authenticator.cpp} answers 401 with
   * 111) and the security client's 900.
   */
  private static boolean isAuthentication(int status, int code, List<Integer> inner) {
    if (status == 401) {
      return true;
    }
    for (int c : AUTHENTICATION_CODES) {
      if (code == c || inner.contains(c)) {
        return true;
      }
    }
    return false;
  }

  private Optional<JsonNode> readError(byte[] body) {
    if (body == null || body.length == 0) {
      return Optional.empty();
    }
    try {
      JsonNode node = json.readTree(body);
      return node != null && node.isObject() && node.has("code") && node.has("message")
          ? Optional.of(node)
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private Optional<JsonNode> readError(String header) {
    return readError(header.getBytes(StandardCharsets.UTF_8));
  }

  /** Every code below the top level, depth first, outermost first. */
  static void collectInnerCodes(JsonNode error, List<Integer> out) {
    for (JsonNode inner : error.path("inner_errors")) {
      if (inner.has("code")) {
        out.add(inner.path("code").asInt());
      }
      collectInnerCodes(inner, out);
    }
  }

  private static String describe(JsonNode error, int depth) {
    StringBuilder text = new StringBuilder(error.path("message").asText(""));
    if (depth < MAX_MESSAGE_DEPTH) {
      for (JsonNode inner : error.path("inner_errors")) {
        text.append(" <- ")
            .append(describe(inner, depth + 1))
            .append(" (code ")
            .append(inner.path("code").asInt())
            .append(')');
      }
    }
    return text.toString();
  }
}
