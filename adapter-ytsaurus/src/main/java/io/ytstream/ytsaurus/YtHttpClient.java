package io.ytstream.ytsaurus;

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.error.CommitOutcomeUnknownException;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.ytsaurus.http.Http11Client;
import io.ytstream.ytsaurus.http.HttpAnswer;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * Sends v4 commands: {@code <method> <proxy>/api/v4/<command>} with the parameters as JSON in
 * {@code X-YT-Parameters} ({@link #HEADER_FORMAT}), GUID mutation ids ({@link MutationId}), JSON
 * ({@code encode_utf8=false}) for structured answers and binary YSON ({@link YsonRows}) for rows, a
 * timeout on every request, bounded retries with exponential backoff where {@link Repeat} allows
 * them, and errors parsed into {@link YtHttpException}.
 */
final class YtHttpClient {

  /**
   * {@code {"$value":"json","$attributes":{"encode_utf8":false}}} ({@code
   * yt/yt/server/http_proxy/formats.cpp}).
   */
  static final String JSON_FORMAT = "{\"$value\":\"json\",\"$attributes\":{\"encode_utf8\":false}}";

  /**
   * How the proxy reads {@code X-YT-Parameters}: JSON whose strings are text, not bytes. With plain
   * {@code json} ({@code encode_utf8=%true} by default) each character is one byte, so a non-ASCII
   * path would reach the server as the wrong bytes ({@code yt/yt/server/http_proxy/formats.cpp},
   * {@code InferHeaderFormat} parses this header as YSON). The parameters are ASCII on the wire:
   * anything else is sent as a JSON escape (backslash, u, four hex digits), which this format
   * decodes to UTF-8.
   */
  static final String HEADER_FORMAT = "<encode_utf8=%false>json";

  private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);

  private final YtsaurusClientConfig config;
  private final Http11Client http;
  private final ObjectMapper json;
  private final ObjectMapper headerJson;
  private final ErrorParser errors;
  private final Set<Command> unregistered = ConcurrentHashMap.newKeySet();

  YtHttpClient(YtsaurusClientConfig config) {
    this.config = config;
    // The proxy speaks HTTP/1.1 (yt/yt/core/http/stream.cpp parses HTTP/1.x).
    this.http =
        new Http11Client(config.trust().map(HttpsTrust::sslContext), config.connectTimeout());
    this.json = new ObjectMapper();
    // Header values must be ASCII: escape everything else as \\uXXXX.
    this.headerJson = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();
    this.errors = new ErrorParser(json);
  }

  ObjectMapper json() {
    return json;
  }

  ObjectNode params() {
    return json.createObjectNode();
  }

  /** Closes the kept-alive connections (requests after this open connections they do not keep). */
  void close() {
    http.close();
  }

  URI primaryProxy() {
    return config.proxy();
  }

  /** A structured command; returns the JSON value ({@code {}} for an empty body). */
  JsonNode structured(URI proxy, Command command, ObjectNode params, Repeat repeat) {
    return structured(proxy, command, params, null, repeat);
  }

  JsonNode structured(URI proxy, Command command, ObjectNode params, byte[] body, Repeat repeat) {
    return structuredValue(command, send(proxy, command, params, body, repeat));
  }

  /**
   * {@code command}, or {@code oldName} when the server does not know {@code command}: it answers
   * 404 "Command ... is not registered" before running anything ({@code
   * yt/yt/server/http_proxy/context.cpp}, {@code TryGetDescriptor}), so sending the old name then
   * is safe even for a mutation. Once seen, the new name is not tried again on this connection.
   */
  byte[] sendRenamed(
      URI proxy, Command command, Command oldName, ObjectNode params, byte[] body, Repeat repeat) {
    return sendRenamed(proxy, command, oldName, params, body, repeat, h -> {});
  }

  /** As {@link #sendRenamed}, handing the successful answer's headers to {@code headers}. */
  byte[] sendRenamed(
      URI proxy,
      Command command,
      Command oldName,
      ObjectNode params,
      byte[] body,
      Repeat repeat,
      Consumer<HttpHeaders> headers) {
    if (!unregistered.contains(command)) {
      try {
        return send(proxy, command, params, body, repeat, headers);
      } catch (YtHttpException e) {
        if (e.httpStatus() != 404 || !e.getMessage().contains("is not registered")) {
          throw e;
        }
        unregistered.add(command);
      }
    }
    return send(proxy, oldName, params, body, repeat, headers);
  }

  JsonNode structuredRenamed(
      URI proxy, Command command, Command oldName, ObjectNode params, Repeat repeat) {
    return structuredValue(command, sendRenamed(proxy, command, oldName, params, null, repeat));
  }

  private JsonNode structuredValue(Command command, byte[] response) {
    if (response.length == 0) {
      return json.createObjectNode();
    }
    try {
      return json.readTree(response);
    } catch (IOException e) {
      throw new YtTransportException(
          command.wireName() + " returned a body that is not JSON (" + response.length + " bytes)",
          e);
    }
  }

  /** The raw bytes of the response (tabular JSON lines or a file). */
  byte[] send(URI proxy, Command command, ObjectNode params, byte[] body, Repeat repeat) {
    return send(proxy, command, params, body, repeat, h -> {});
  }

  /**
   * As {@link #send(URI, Command, ObjectNode, byte[], Repeat)}, handing the successful answer's
   * headers (e.g. {@code X-YT-Response-Parameters}) to {@code headers}.
   */
  byte[] send(
      URI proxy,
      Command command,
      ObjectNode params,
      byte[] body,
      Repeat repeat,
      Consumer<HttpHeaders> headers) {
    ObjectNode sent = params.deepCopy();
    boolean streamed = command.output() != Command.Output.STRUCTURED;
    if (streamed) {
      // An error after the rows started is then written into the body, where it is seen.
      sent.put(DumpedError.PARAMETER, true);
    }
    if (repeat == Repeat.MUTATION_ID) {
      sent.put("mutation_id", MutationId.random());
      sent.put("retry", false);
    }
    String correlationId = UUID.randomUUID().toString();
    for (int attempt = 1; ; attempt++) {
      if (attempt > 1 && repeat == Repeat.MUTATION_ID) {
        sent.put("retry", true);
      }
      String parameters = writeHeaderJson(sent);
      HttpAnswer response;
      try {
        response =
            http.send(
                command.method(),
                URI.create(proxy + "/api/v4/" + command.wireName()),
                requestHeaders(command, parameters, correlationId),
                body,
                config.requestTimeout());
      } catch (IOException e) {
        log(command, proxy, parameters, body, attempt, -1, describe(e));
        if (Thread.currentThread().isInterrupted()) {
          throw interrupted(command.wireName() + " to " + proxy, e);
        }
        Optional<SSLException> tls = tlsFailure(e);
        if (tls.isPresent()) {
          // A certificate that is not trusted stays so: fail now, saying how to fix it.
          throw tlsError(command.wireName(), proxy, tls.get());
        }
        boolean notSent = e instanceof ConnectException;
        if (attempt < config.maxAttempts() && (notSent || repeatableAfterSending(repeat))) {
          pause(attempt);
          continue;
        }
        String what =
            command.wireName()
                + " to "
                + proxy
                + " failed after "
                + attempt
                + " attempt(s): "
                + describe(e)
                + timeoutAdvice(e);
        if (!notSent && repeat == Repeat.COMMIT) {
          throw new CommitOutcomeUnknownException(
              what + "; the request was sent, so it may or may not have been applied", e);
        }
        throw new YtTransportException(what, e);
      }
      int status = response.status();
      Optional<String> errorHeader = response.headers().firstValue("X-YT-Error");
      boolean ok = (status == 200 || status == 202) && errorHeader.isEmpty();
      YtHttpException error;
      if (ok) {
        Optional<DumpedError.Split> dumped =
            streamed ? DumpedError.find(response.body()) : Optional.empty();
        Optional<String> trailerError = response.trailers().firstValue("X-YT-Error");
        if (dumped.isEmpty() && trailerError.isEmpty()) {
          log(command, proxy, parameters, body, attempt, status, "");
          headers.accept(response.headers());
          return response.body();
        }
        error =
            errors.parse(
                command.wireName() + " (after the answer had started)",
                proxy,
                status,
                dumped.map(DumpedError.Split::errorJson).orElse(new byte[0]),
                dumped.isPresent() ? Optional.empty() : trailerError,
                config.token().orElse(null));
        log(command, proxy, parameters, body, attempt, status, "error in body " + error.codes());
      } else {
        error =
            errors.parse(
                command.wireName(),
                proxy,
                status,
                response.body(),
                errorHeader,
                config.token().orElse(null));
        log(command, proxy, parameters, body, attempt, status, "error " + error.codes());
      }
      boolean rejected = status == 429 || status == 503;
      if (attempt < config.maxAttempts()
          && (rejected || (repeat == Repeat.READ && transientCode(error)))) {
        pause(attempt);
        continue;
      }
      throw error;
    }
  }

  /**
   * {@code GET <proxy>/hosts}: the heavy proxies, least loaded first ({@code
   * yt/yt/server/http_proxy/coordinator.cpp}).
   */
  List<String> hosts() {
    URI hosts = URI.create(config.proxy() + "/hosts");
    List<String> requestHeaders = new ArrayList<>(4);
    authorize(requestHeaders);
    requestHeaders.add("Accept");
    requestHeaders.add("application/json");
    for (int attempt = 1; ; attempt++) {
      try {
        HttpAnswer response =
            http.send("GET", hosts, requestHeaders, null, config.requestTimeout());
        log(null, config.proxy(), "", null, attempt, response.status(), "");
        if (response.status() != 200) {
          throw errors.parse(
              "GET /hosts",
              config.proxy(),
              response.status(),
              response.body(),
              response.headers().firstValue("X-YT-Error"),
              config.token().orElse(null));
        }
        JsonNode list = json.readTree(response.body());
        return json.convertValue(
            list, json.getTypeFactory().constructCollectionType(List.class, String.class));
      } catch (IOException e) {
        if (Thread.currentThread().isInterrupted()) {
          throw interrupted("GET " + config.proxy() + "/hosts", e);
        }
        Optional<SSLException> tls = tlsFailure(e);
        if (tls.isPresent()) {
          throw tlsError("GET /hosts", config.proxy(), tls.get());
        }
        if (attempt >= config.maxAttempts()) {
          throw new YtTransportException("GET " + config.proxy() + "/hosts failed", e);
        }
        pause(attempt);
      }
    }
  }

  /** The headers of a command: name, value, name, value, ... */
  private List<String> requestHeaders(Command command, String parameters, String correlationId) {
    List<String> headers = new ArrayList<>(16);
    authorize(headers);
    headers.add("X-YT-Header-Format");
    headers.add(HEADER_FORMAT);
    headers.add("X-YT-Parameters");
    headers.add(parameters);
    headers.add("X-YT-Correlation-Id");
    headers.add(correlationId);
    headers.add("X-YT-Output-Format");
    headers.add(command.output() == Command.Output.TABULAR ? YsonRows.FORMAT : JSON_FORMAT);
    if (command == Command.INSERT_ROWS
        || command == Command.DELETE_ROWS
        || command == Command.LOOKUP_ROWS
        || command == Command.PUSH_QUEUE_PRODUCER) {
      headers.add("X-YT-Input-Format");
      headers.add(YsonRows.FORMAT);
    }
    if (command.method().equals("PUT")) {
      headers.add("Content-Type");
      headers.add("application/octet-stream");
    }
    return headers;
  }

  private void authorize(List<String> headers) {
    config
        .token()
        .ifPresent(
            t -> {
              headers.add("Authorization");
              headers.add(t.authorizationHeader());
            });
  }

  private String writeHeaderJson(ObjectNode params) {
    try {
      return headerJson.writeValueAsString(params);
    } catch (IOException e) {
      throw new IllegalStateException("cannot serialize parameters", e);
    }
  }

  /**
   * The TLS failure behind {@code e} when the connection could not be set up at all (an untrusted
   * or mismatched certificate, or a proxy that does not speak TLS); other TLS errors, such as a
   * connection reset mid-stream, are ordinary transport failures.
   */
  private static Optional<SSLException> tlsFailure(IOException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SSLHandshakeException handshake) {
        return Optional.of(handshake);
      }
      if (t instanceof SSLException ssl
          && String.valueOf(ssl.getMessage()).contains("Unsupported or unrecognized SSL message")) {
        return Optional.of(ssl);
      }
    }
    return Optional.empty();
  }

  private YtTransportException tlsError(String what, URI proxy, SSLException e) {
    String trust =
        config
            .trust()
            .map(t -> "the proxy's certificate is not among those trusted by " + t)
            .orElse(
                "if the proxy's certificate is not signed by a CA the JVM trusts, set "
                    + HttpsTrust.CA_CERTIFICATES
                    + " (a PEM file of its CA) or "
                    + HttpsTrust.TRUST_STORE
                    + " with "
                    + HttpsTrust.TRUST_STORE_PASSWORD);
    return new YtTransportException(
        what
            + " to "
            + proxy
            + ": TLS handshake failed ("
            + describe(e)
            + "); "
            + trust
            + ". Not retried.",
        e);
  }

  private static boolean repeatableAfterSending(Repeat repeat) {
    return repeat == Repeat.READ || repeat == Repeat.MUTATION_ID || repeat == Repeat.IDEMPOTENT;
  }

  /**
   * Codes after which a read is tried again, as the Python client retries them ({@code
   * yt/python/yt/wrapper/dynamic_table_commands.py}, {@code get_dynamic_table_retriable_errors};
   * numbers from {@code yt/yt/client/tablet_client/public.h} and {@code yt/yt/core/rpc/public.h}).
   */
  static final List<Integer> TRANSIENT_READ_CODES =
      List.of(
          YtErrorCode.NO_SUCH_TABLET, // 1701
          YtErrorCode.TABLET_NOT_MOUNTED, // 1702
          YtErrorCode.TABLE_MOUNT_INFO_NOT_READY, // 1707
          YtErrorCode.ROW_IS_BLOCKED, // 1712
          1713, // BlockedRowWaitTimeout
          1721, // NoSuchCell
          YtErrorCode.REQUEST_THROTTLED, // 1725
          1735, // ChunkIsNotPreloaded
          1736, // NoInSyncReplicas
          102, // NoSuchService
          105, // Unavailable: "Proxy is unavailable" (http_proxy/context.cpp)
          108); // RequestQueueSizeLimitExceeded

  private static boolean transientCode(YtHttpException error) {
    for (int code : TRANSIENT_READ_CODES) {
      if (error.hasCode(code)) {
        return true;
      }
    }
    return false;
  }

  private void pause(int attempt) {
    long base = config.backoff().toMillis() << Math.min(attempt - 1, 10);
    long capped = Math.min(base, MAX_BACKOFF.toMillis());
    long jittered = capped / 2 + ThreadLocalRandom.current().nextLong(capped / 2 + 1);
    try {
      Thread.sleep(jittered);
    } catch (InterruptedException e) {
      throw interrupted("backing off before another attempt", e);
    }
  }

  /**
   * The calling thread was interrupted: a stopping Spark query interrupts its driver thread and
   * cancels its tasks this way. Not retried; the thread's interrupt flag stays set; and the error
   * is one Spark takes for a clean stop ({@code StreamExecution.isInterruptionException} accepts an
   * {@link InterruptedIOException}, also inside an {@link UncheckedIOException}), where a transport
   * error would leave the stopped query failed. A request interrupted after it was sent may or may
   * not have been applied, as after a lost answer.
   */
  static UncheckedIOException interrupted(String what, Exception cause) {
    Thread.currentThread().interrupt();
    InterruptedIOException interrupted = new InterruptedIOException(what + ": interrupted");
    interrupted.initCause(cause);
    return new UncheckedIOException(interrupted.getMessage(), interrupted);
  }

  /** For a request that timed out: the setting that bounds it, its value and the fix. */
  private String timeoutAdvice(IOException e) {
    return e instanceof SocketTimeoutException
        ? "; the proxy did not answer within yt.http.requestTimeoutMs="
            + config.requestTimeout().toMillis()
            + ": raise it if the proxy is only slow"
        : "";
  }

  private String describe(Exception e) {
    String text =
        e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    return config.token().map(t -> t.redact(text)).orElse(text);
  }

  private void log(
      Command command,
      URI proxy,
      String parameters,
      byte[] body,
      int attempt,
      int status,
      String outcome) {
    config
        .requestLogger()
        .log(
            new RequestLogger.LoggedRequest(
                command == null ? "GET" : command.method(),
                proxy.toString(),
                command == null ? "/hosts" : command.wireName(),
                parameters,
                carriesRows(command) ? YsonRows.DESCRIPTION : "",
                body == null ? 0 : body.length,
                attempt,
                status,
                outcome));
  }

  private static boolean carriesRows(Command command) {
    return command != null
        && (command.output() == Command.Output.TABULAR
            || command == Command.INSERT_ROWS
            || command == Command.DELETE_ROWS
            || command == Command.PUSH_QUEUE_PRODUCER);
  }

  static String utf8(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
