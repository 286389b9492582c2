package io.ytstream.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.ytstream.core.error.CommitOutcomeUnknownException;
import io.ytstream.core.error.YtException;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.types.yson.Yson;
import io.ytstream.types.yson.YsonAttributed;
import io.ytstream.types.yson.YsonUint64;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * One emulated HTTP proxy: {@code /hosts}, {@code /api}, {@code /api/v4} and {@code
 * /api/v4/<command>}, with the reference's request rules (2.1) and response envelopes, error JSON
 * and headers (2.2).
 */
final class ProxyHandler implements HttpHandler {

  private final int proxyIndex;
  private final Map<String, CommandSpec> commands;

  /** Accepted tokens and the user each acts as; empty when requests need no token. */
  private final Map<String, String> tokenUsers;

  private final List<String> endpoints;
  private final boolean showPorts;
  private final StreamFaults faults;
  private final CommandExecutor executor;
  private final ProxyAvailability availability;

  /** Runs a parsed command (journaling it when it changed something). */
  @FunctionalInterface
  interface CommandExecutor {
    Object execute(CommandSpec spec, CommandRequest request);
  }

  ProxyHandler(
      int proxyIndex,
      Map<String, CommandSpec> commands,
      Map<String, String> tokenUsers,
      List<String> endpoints,
      boolean showPorts,
      StreamFaults faults,
      CommandExecutor executor,
      ProxyAvailability availability) {
    this.proxyIndex = proxyIndex;
    this.commands = commands;
    this.tokenUsers = Map.copyOf(tokenUsers);
    this.endpoints = endpoints;
    this.showPorts = showPorts;
    this.faults = faults;
    this.executor = executor;
    this.availability = availability;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      Headers out = exchange.getResponseHeaders();
      out.set("X-YT-Request-Id", UUID.randomUUID().toString().substring(0, 18));
      out.set("X-YT-Proxy", host(endpoints.get(proxyIndex)));
      String path = exchange.getRequestURI().getPath();
      try {
        route(exchange, path);
      } catch (CommandError e) {
        sendError(exchange, e);
      } catch (YtException e) {
        sendError(exchange, EmulatorState.toCommandError(e));
      } catch (CommitOutcomeUnknownException e) {
        // A lost response: close the connection without sending a status line.
        exchange.close();
      } catch (IllegalArgumentException | ArithmeticException e) {
        sendError(exchange, CommandError.badRequest(String.valueOf(e.getMessage())));
      } catch (RuntimeException e) {
        sendError(exchange, new CommandError(500, 1, "Internal emulator error: " + e, List.of()));
      }
    }
  }

  private void route(HttpExchange exchange, String path) throws IOException {
    if (path.equals("/hosts") || path.startsWith("/hosts/")) {
      hosts(exchange, path);
      return;
    }
    // context.cpp, TryParseCommandName: the path is lower-cased. A real proxy lists v3 and v4 and
    // serves both; the emulator serves v4 only, so it lists only v4 (a client that would pick v3
    // then says so, rather than failing on /api/v3).
    path = path.toLowerCase(Locale.ROOT);
    if (path.equals("/api") || path.equals("/api/")) {
      sendJson(exchange, 200, JsonNodeFactory.instance.arrayNode().add("v4"));
      return;
    }
    if (path.equals("/api/v4") || path.equals("/api/v4/")) {
      ArrayNode list = JsonNodeFactory.instance.arrayNode();
      commands
          .values()
          .forEach(
              spec -> {
                ObjectNode item = list.addObject();
                item.put("name", spec.name());
                item.put("input_type", spec.inputType());
                item.put("output_type", spec.outputType());
                item.put("is_volatile", spec.isVolatile());
                item.put("is_heavy", spec.isHeavy());
              });
      sendJson(exchange, 200, list);
      return;
    }
    if (!path.startsWith("/api/v4/")) {
      throw new CommandError(404, 1, "Unknown path " + path, List.of());
    }
    String name = path.substring("/api/v4/".length());
    for (char c : name.toCharArray()) {
      if (c != '_' && !(c >= 'a' && c <= 'z')) {
        throw new CommandError(404, 1, "Malformed command name", List.of());
      }
    }
    String user = authenticate(exchange);
    CommandSpec spec = commands.get(name);
    if (spec == null) {
      throw new CommandError(404, 1, "Command \"" + name + "\" is not registered", List.of());
    }
    // context.cpp, TryCheckAvailability / TryAcquireConcurrencySemaphore: a banned or overloaded
    // proxy refuses with 503 after authentication and the command's lookup.
    availability.admit(proxyIndex, name, exchange.getResponseHeaders());
    // No method check: the proxy runs a command whatever the HTTP method (context.cpp,
    // TryPrepare); only a POST body is read as parameters (CaptureParameters).
    CommandRequest request = parse(exchange, spec, user);
    boolean dump = request.flag("dump_error_into_response", false);
    String contentType =
        spec.outputType().equals("binary")
            ? "application/octet-stream"
            : request.outputFormat().mimeType();
    Object result;
    try {
      result = executor.execute(spec, request);
    } catch (RuntimeException e) {
      CommandError error = asCommandError(e);
      if (dump && error != null) {
        // Finalize: with dump_error_into_response the error goes into the output stream of any
        // command, streamed or structured, even when nothing was written yet, under status 200.
        sendStreamed(exchange, contentType, new byte[0], Optional.of(error), true);
        return;
      }
      throw e;
    }
    if (result instanceof byte[] bytes) {
      sendStreamed(exchange, contentType, bytes, faults.take(spec.name()), dump);
    } else if (result instanceof CommandSpec.Tabular tabular) {
      byte[] rows =
          request
              .outputFormat()
              .writeRows(tabular.rows(), tabular.types(), tabular.maxDataWeight());
      if (tabular.responseParameters() != null) {
        // Sent before the body, in the request's header format (context.cpp,
        // OnOutputParameters): text YSON under X-YT-Header-Format: yson, else JSON.
        HeaderFormat headerFormat =
            HeaderFormat.parse(exchange.getRequestHeaders().getFirst("X-YT-Header-Format"));
        exchange
            .getResponseHeaders()
            .set("X-YT-Response-Parameters", headerFormat.write(tabular.responseParameters()));
      }
      sendStreamed(exchange, contentType, rows, faults.take(spec.name()), dump);
    } else {
      exchange.getResponseHeaders().set("Content-Type", request.outputFormat().mimeType());
      send(exchange, 200, request.outputFormat().writeStructured((JsonNode) result));
    }
  }

  /** The error a failed command answers with, or null for a lost response (no answer at all). */
  private static CommandError asCommandError(RuntimeException e) {
    if (e instanceof CommandError c) {
      return c;
    }
    if (e instanceof YtException y) {
      return EmulatorState.toCommandError(y);
    }
    if (e instanceof CommitOutcomeUnknownException) {
      return null;
    }
    if (e instanceof IllegalArgumentException || e instanceof ArithmeticException) {
      return CommandError.badRequest(String.valueOf(e.getMessage()));
    }
    return new CommandError(500, 1, "Internal emulator error: " + e, List.of());
  }

  /**
   * A streamed answer ({@code context.cpp}): status 200 and a chunked body, announcing the trailers
   * {@code X-YT-Error}, {@code X-YT-Response-Code}, {@code X-YT-Response-Message} unless the
   * request has {@code X-YT-Omit-Trailers} ({@code TryParseRequest}, {@code AddHeaders}). With a
   * {@code failure} (one armed by {@link StreamFaults}), half the body goes out, then the error:
   * with {@code dump} as {@link DumpedError} bytes in the body, else in the trailers ({@code
   * Finalize}, {@code FillFormattedYTErrorTrailers}).
   */
  private static void sendStreamed(
      HttpExchange exchange,
      String contentType,
      byte[] body,
      Optional<CommandError> failure,
      boolean dump)
      throws IOException {
    boolean omitTrailers = exchange.getRequestHeaders().containsKey("X-YT-Omit-Trailers");
    Headers out = exchange.getResponseHeaders();
    out.set("Content-Type", contentType);
    if (!omitTrailers) {
      out.set("Trailer", "X-YT-Error, X-YT-Response-Code, X-YT-Response-Message");
    }
    exchange.sendResponseHeaders(200, 0);
    OutputStream stream = exchange.getResponseBody();
    if (failure.isEmpty()) {
      stream.write(body);
      return;
    }
    stream.write(body, 0, body.length / 2);
    stream.flush();
    CommandError error = failure.get();
    if (dump) {
      stream.write(DumpedError.of(errorJson(error)));
    } else if (!omitTrailers && exchange instanceof Http11Exchange http) {
      http.trailers().set("X-YT-Error", asciiOnly(errorJson(error).toString()));
      http.trailers().set("X-YT-Response-Code", Integer.toString(error.code()));
      http.trailers().set("X-YT-Response-Message", asciiOnly(String.valueOf(error.getMessage())));
    }
  }

  /**
   * {@code yt/yt/server/http_proxy/coordinator.cpp}, {@code THostsHandler}: the proxies of {@code
   * ?role=} (default "data", the role of every emulated proxy) as bare host names ({@code
   * show_ports} false) or {@code host:port}; {@code Accept: text/plain} gives one per line; {@code
   * /hosts/all} lists every proxy as a map. No authentication.
   */
  private void hosts(HttpExchange exchange, String path) throws IOException {
    String role = "data";
    String query = exchange.getRequestURI().getRawQuery();
    if (query != null) {
      for (String pair : query.split("&")) {
        String[] kv = pair.split("=", 2);
        if (kv[0].equals("role")) {
          role = kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "";
        }
      }
    }
    String suffix = path.equals("/hosts") || path.equals("/hosts/") ? null : path.substring(7);
    if ("all".equals(suffix)) {
      ArrayNode list = JsonNodeFactory.instance.arrayNode();
      for (int i = 0; i < endpoints.size(); i++) {
        String endpoint = endpoints.get(i);
        ObjectNode entry = list.addObject();
        entry.put("host", host(endpoint));
        entry.put("name", endpoint);
        entry.put("role", "data");
        entry.put("banned", availability.banned(i));
        entry.put("dead", false);
      }
      sendJson(exchange, 200, list);
      return;
    }
    List<String> names = new java.util.ArrayList<>();
    if (role.equals("data")) {
      for (int i = 0; i < endpoints.size(); i++) {
        // coordinator.cpp, ListProxies: banned proxies are left out unless /hosts/all.
        if (availability.banned(i)) {
          continue;
        }
        String endpoint = endpoints.get(i);
        String name = showPorts ? endpoint : host(endpoint);
        names.add(suffix != null && suffix.startsWith("fb") && !showPorts ? "fb-" + name : name);
      }
    }
    if ("text/plain".equals(exchange.getRequestHeaders().getFirst("Accept"))) {
      StringBuilder text = new StringBuilder();
      names.forEach(n -> text.append(n).append('\n'));
      exchange.getResponseHeaders().set("Content-Type", "text/plain");
      send(exchange, 200, text.toString().getBytes(StandardCharsets.UTF_8));
      return;
    }
    ArrayNode list = JsonNodeFactory.instance.arrayNode();
    names.forEach(list::add);
    sendJson(exchange, 200, list);
  }

  /** {@code 127.0.0.2:8000} to {@code 127.0.0.2}. */
  private static String host(String endpoint) {
    return endpoint.substring(0, endpoint.lastIndexOf(':'));
  }

  /**
   * {@code yt/yt/server/http_proxy/http_authenticator.cpp}: {@code Authorization} must start with
   * {@code "OAuth "} ("Malformed Authorization header"); no header or an empty token is "Client is
   * missing credentials"; both code 111 (InvalidCredentials), HTTP 401 ({@code
   * SetStatusFromAuthError}). A token the Cypress token authenticator does not find is 111 "Token
   * is missing in Cypress" with the token's SHA-256 ({@code
   * yt/yt/library/auth_server/cypress_token_authenticator.cpp}), never the token itself.
   */
  private String authenticate(HttpExchange exchange) {
    if (tokenUsers.isEmpty()) {
      return InMemoryCluster.ROOT_USER;
    }
    String header = exchange.getRequestHeaders().getFirst("Authorization");
    String prefix = "OAuth ";
    if (header != null && !header.startsWith(prefix)) {
      throw new CommandError(401, 111, "Malformed Authorization header", List.of());
    }
    String given = header == null ? "" : header.substring(prefix.length());
    if (given.isEmpty()) {
      throw new CommandError(401, 111, "Client is missing credentials", List.of());
    }
    byte[] givenBytes = given.getBytes(StandardCharsets.UTF_8);
    String user = null;
    // Every token is compared in constant time, so the answer's timing tells nothing of them.
    for (Map.Entry<String, String> known : tokenUsers.entrySet()) {
      if (MessageDigest.isEqual(givenBytes, known.getKey().getBytes(StandardCharsets.UTF_8))) {
        user = known.getValue();
      }
    }
    if (user == null) {
      String hash = sha256(given);
      CommandError resolve =
          new CommandError(
              401, 500, "Error resolving path //sys/cypress_tokens/" + hash, List.of());
      throw new CommandError(
          401, 111, "Token is missing in Cypress", List.of(resolve), Map.of("token_hash", hash));
    }
    return user;
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private CommandRequest parse(HttpExchange exchange, CommandSpec spec, String user)
      throws IOException {
    Headers headers = exchange.getRequestHeaders();
    HeaderFormat headerFormat = HeaderFormat.parse(headers.getFirst("X-YT-Header-Format"));
    boolean yson = headerFormat.yson();
    ObjectNode parameters = JsonNodeFactory.instance.objectNode();
    String query = exchange.getRequestURI().getRawQuery();
    if (query != null) {
      for (String pair : query.split("&")) {
        if (pair.isEmpty()) {
          continue;
        }
        String[] kv = pair.split("=", 2);
        String key = URLDecoder.decode(kv[0], StandardCharsets.UTF_8);
        String value = kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "";
        parameters.set(key, queryValue(value));
      }
    }
    String header = headers.getFirst("X-YT-Parameters");
    if (header != null && !header.isBlank()) {
      if (yson) {
        mergeYson(parameters, header);
      } else {
        JsonNode node = headerFormat.readJson(header);
        if (!(node instanceof ObjectNode object)) {
          throw CommandError.badRequest("X-YT-Parameters must be a JSON map of parameters");
        }
        parameters.setAll(object);
      }
    }
    String contentEncoding = headers.getFirst("Content-Encoding");
    RequestBodyEncoding.check(contentEncoding);
    byte[] body;
    try (InputStream in = exchange.getRequestBody()) {
      body = RequestBodyEncoding.decode(contentEncoding, in.readAllBytes());
    }
    // formats.cpp, GetDefaultFormatNodeForDataType: text YSON for tabular data, json for
    // structured output, yson otherwise (so a POST body of parameters without X-YT-Input-Format
    // or Content-Type: application/json is read as YSON).
    WireFormat inputDefault =
        spec.inputType().equals("tabular") ? WireFormat.tabularDefault() : WireFormat.yson(true);
    WireFormat outputDefault =
        spec.outputType().equals("tabular") ? WireFormat.tabularDefault() : WireFormat.json(true);
    WireFormat inputFormat =
        WireFormat.infer(
            "input",
            headers.getFirst("X-YT-Input-Format"),
            yson,
            headers.getFirst("Content-Type"),
            inputDefault);
    if (exchange.getRequestMethod().equalsIgnoreCase("POST") && body.length > 0) {
      // context.cpp, CaptureParameters: a POST body holds parameters, in the input format.
      mergeBody(parameters, body, inputFormat);
      body = new byte[0];
    }
    WireFormat outputFormat =
        WireFormat.infer(
            "output",
            headers.getFirst("X-YT-Output-Format"),
            yson,
            headers.getFirst("Accept"),
            outputDefault);
    // context.cpp, CaptureParameters: the input_format and output_format parameters win over the
    // format headers; the official Python client sends formats only this way.
    Optional<JsonNode> inputParameter = optionalParameter(parameters, "input_format");
    if (inputParameter.isPresent()) {
      inputFormat = WireFormat.fromParameter(inputParameter.get(), "input");
    }
    Optional<JsonNode> outputParameter = optionalParameter(parameters, "output_format");
    if (outputParameter.isPresent()) {
      outputFormat = WireFormat.fromParameter(outputParameter.get(), "output");
    }
    return new CommandRequest(
        spec.name(), parameters, body, inputFormat, outputFormat, proxyIndex, user);
  }

  private static Optional<JsonNode> optionalParameter(ObjectNode parameters, String name) {
    JsonNode node = parameters.get(name);
    return node == null || node.isNull() ? Optional.empty() : Optional.of(node);
  }

  /** Parameters from a POST body, in the request's input format. */
  private static void mergeBody(ObjectNode into, byte[] body, WireFormat format) {
    if (format.isYson()) {
      mergeYson(into, new String(body, StandardCharsets.ISO_8859_1));
      return;
    }
    JsonNode node =
        new HeaderFormat(false, format.encodeUtf8())
            .readJson(new String(body, StandardCharsets.ISO_8859_1));
    if (!(node instanceof ObjectNode object)) {
      throw CommandError.badRequest("The request body must be a map of parameters");
    }
    into.setAll(object);
  }

  /** {@code X-YT-Parameters} in text YSON ({@code X-YT-Header-Format: yson}). */
  private static void mergeYson(ObjectNode into, String header) {
    Object node;
    try {
      node = Yson.parse(header.strip().getBytes(StandardCharsets.ISO_8859_1));
    } catch (IllegalArgumentException e) {
      throw CommandError.badRequest("Unable to parse parameters from headers: " + e.getMessage());
    }
    if (!(node instanceof Map<?, ?> map)) {
      throw CommandError.badRequest("X-YT-Parameters must be a YSON map of parameters");
    }
    map.forEach((k, v) -> into.set(String.valueOf(k), ysonToJson(v)));
  }

  /**
   * A YSON parameter value as the JSON tree the commands read; a value with attributes (a rich
   * YPath) becomes its text form {@code <attributes>value}, which path parameters parse.
   */
  static JsonNode ysonToJson(Object value) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    if (value == null) {
      return nodes.nullNode();
    }
    if (value instanceof byte[] bytes) {
      return nodes.textNode(new String(bytes, StandardCharsets.UTF_8));
    }
    if (value instanceof Long l) {
      return nodes.numberNode(l);
    }
    if (value instanceof YsonUint64 u) {
      return nodes.numberNode(u.toBigInteger());
    }
    if (value instanceof Double d) {
      return nodes.numberNode(d);
    }
    if (value instanceof Boolean b) {
      return nodes.booleanNode(b);
    }
    if (value instanceof List<?> list) {
      ArrayNode array = nodes.arrayNode();
      list.forEach(item -> array.add(ysonToJson(item)));
      return array;
    }
    if (value instanceof Map<?, ?> map) {
      ObjectNode object = nodes.objectNode();
      map.forEach((k, v) -> object.set(String.valueOf(k), ysonToJson(v)));
      return object;
    }
    YsonAttributed attributed = (YsonAttributed) value;
    String attributes = Yson.toText(attributed.attributes());
    JsonNode inner = ysonToJson(attributed.value());
    return nodes.textNode(
        "<" + attributes.substring(1, attributes.length() - 1) + ">" + inner.asText());
  }

  /** Query-string values are text; numbers and booleans are recognized. */
  private static JsonNode queryValue(String value) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    if (value.equals("true") || value.equals("%true")) {
      return nodes.booleanNode(true);
    }
    if (value.equals("false") || value.equals("%false")) {
      return nodes.booleanNode(false);
    }
    if (value.matches("-?[0-9]{1,18}")) {
      return nodes.numberNode(Long.parseLong(value));
    }
    if (value.startsWith("[") || value.startsWith("{")) {
      try {
        return WireFormat.JSON.readTree(value);
      } catch (IOException e) {
        return nodes.textNode(value);
      }
    }
    return nodes.textNode(value);
  }

  private static ObjectNode errorJson(CommandError error) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("code", error.code());
    node.put("message", String.valueOf(error.getMessage()));
    ObjectNode attributes = node.putObject("attributes");
    attributes.put("host", "emulator");
    error.attributes().forEach(attributes::put);
    ArrayNode inner = node.putArray("inner_errors");
    error.inner().forEach(e -> inner.add(errorJson(e)));
    return node;
  }

  private static void sendError(HttpExchange exchange, CommandError error) throws IOException {
    ObjectNode json = errorJson(error);
    Headers out = exchange.getResponseHeaders();
    // Header values must be ASCII; Jackson's writer escapes nothing, so escape by hand.
    out.set("X-YT-Error", asciiOnly(json.toString()));
    out.set("X-YT-Response-Code", Integer.toString(error.code()));
    out.set("X-YT-Response-Message", asciiOnly(String.valueOf(error.getMessage())));
    sendJson(exchange, error.httpStatus(), json);
  }

  private static String asciiOnly(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      if (c < 0x20 || c > 0x7e) {
        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static void sendJson(HttpExchange exchange, int status, JsonNode json)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    send(exchange, status, json.toString().getBytes(StandardCharsets.UTF_8));
  }

  private static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      exchange.getResponseBody().write(body);
    }
  }
}
