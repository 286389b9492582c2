package io.ytstream.ytsaurus;

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.error.CommitOutcomeUnknownException;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.ytsaurus.http.AnswerOverLimit;
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
    return structured(target(proxy), command, params, null, repeat);
  }

  JsonNode structured(ProxyTarget target, Command command, ObjectNode params, Repeat repeat) {
    return structured(target, command, params, null, repeat);
  }

  JsonNode structured(URI proxy, Command command, ObjectNode params, byte[] body, Repeat repeat) {
    return structured(target(proxy), command, params, body, repeat);
  }

  JsonNode structured(
      ProxyTarget target, Command command, ObjectNode params, byte[] body, Repeat repeat) {
    return structuredValue(command, send(target, command, params, body, repeat));
  }

  /**
   * A request to {@code proxy} by address: the cluster address, or else the proxy of a tablet
   * transaction, which no other proxy can serve.
   */
  private ProxyTarget target(URI proxy) {
    return proxy.equals(config.proxy())
        ? ProxyTarget.clusterAddress(proxy)
        : ProxyTarget.transaction(proxy, null);
  }

  /**
   * {@code command}, or {@code oldName} when the server does not know {@code command}: it answers
   * 404 "Command ... is not registered" before running anything ({@code
   * yt/yt/server/http_proxy/context.cpp}, {@code TryGetDescriptor}), so sending the old name then
   * is safe even for a mutation. Once seen, the new name is not tried again on this connection.
   */
  byte[] sendRenamed(
      ProxyTarget proxy,
      Command command,
      Command oldName,
      ObjectNode params,
      byte[] body,
      Repeat repeat) {
    return sendRenamed(proxy, command, oldName, params, body, repeat, h -> {});
  }

  /** As {@link #sendRenamed}, handing the successful answer's headers to {@code headers}. */
  byte[] sendRenamed(
      ProxyTarget proxy,
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
    return structuredRenamed(target(proxy), command, oldName, params, repeat);
  }

  JsonNode structuredRenamed(
      ProxyTarget proxy, Command command, Command oldName, ObjectNode params, Repeat repeat) {
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
    return send(target(proxy), command, params, body, repeat, h -> {});
  }

  byte[] send(ProxyTarget target, Command command, ObjectNode params, byte[] body, Repeat repeat) {
    return send(target, command, params, body, repeat, h -> {});
  }

  byte[] send(
      URI proxy,
      Command command,
      ObjectNode params,
      byte[] body,
      Repeat repeat,
      Consumer<HttpHeaders> headers) {
    return send(target(proxy), command, params, body, repeat, headers);
  }

  /**
   * As {@link #send(URI, Command, ObjectNode, byte[], Repeat)}, handing the successful answer's
   * headers (e.g. {@code X-YT-Response-Parameters}) to {@code headers}. A proxy that answers 503
   * (banned, overloaded: {@code yt/yt/server/http_proxy/context.cpp}, {@code DispatchUnavailable})
   * or cannot be reached is banned locally ({@link HeavyProxies}); a heavy command goes on to
   * another proxy at once, anything else waits its {@code Retry-After} when that ends within the
   * request's timeout from the call's start, and otherwise fails or (at the cluster address, which
   * may be a balancer) backs off as after any 503.
   */
  byte[] send(
      ProxyTarget target,
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
    long deadline = System.nanoTime() + config.requestTimeout().toNanos();
    for (int attempt = 1; ; attempt++) {
      if (attempt > 1 && repeat == Repeat.MUTATION_ID) {
        sent.put("retry", true);
      }
      URI proxy = target.next();
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
      } catch (AnswerOverLimit e) {
        log(command, proxy, parameters, body, attempt, e.status(), describe(e));
        return overLimit(command, proxy, repeat, e);
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
        // The Python client bans a proxy it could not reach as one that answered 503.
        boolean moved = target.leave(proxy);
        if (attempt < config.maxAttempts() && (notSent || repeatableAfterSending(repeat))) {
          if (!moved) {
            pause(attempt);
          }
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
      // An X-YT-Error too large to keep (Http11Connection) still says the request failed; the
      // proxy wrote the same error as the body, where it is read.
      boolean errorDropped = response.droppedField("X-YT-Error");
      boolean ok = (status == 200 || status == 202) && errorHeader.isEmpty() && !errorDropped;
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
      if (status == 503) {
        if (error.serverMessage().contains(CONTROL_PROXY)) {
          throw controlProxy(error, target);
        }
        // The proxy refused before running the command, so any command may go again.
        boolean moved = target.leave(proxy);
        if (attempt < config.maxAttempts() && moved) {
          continue;
        }
        Optional<Duration> retryAfter = RetryAfter.of(response.headers());
        if (attempt < config.maxAttempts() && retryAfter.isPresent()) {
          long wait = retryAfter.get().toNanos();
          if (System.nanoTime() + wait - deadline <= 0) {
            sleep(Math.max(wait / 1_000_000, 1));
            continue;
          }
          // The cluster address (heavy commands go there too without discovery) may be a
          // balancer: a repeat may reach another proxy.
          boolean clusterAddress =
              target.kind() == ProxyTarget.Kind.CLUSTER_ADDRESS
                  || (target.kind() == ProxyTarget.Kind.HEAVY && proxy.equals(config.proxy()));
          if (!clusterAddress) {
            throw unavailable(error, target, proxy, retryAfter.get());
          }
        }
        if (attempt < config.maxAttempts()) {
          pause(attempt);
          continue;
        }
        throw error;
      }
      if (attempt < config.maxAttempts()
          && (status == 429 || (repeat == Repeat.READ && transientCode(error)))) {
        pause(attempt);
        continue;
      }
      throw error;
    }
  }

  /** What a control proxy answers a heavy command with input ({@code TryRedirectHeavyRequests}). */
  static final String CONTROL_PROXY = "Control proxy may not serve heavy requests with input data";

  /**
   * A heavy command with input reached a control proxy ({@code context.cpp}, {@code
   * TryRedirectHeavyRequests}): a repeat meets the same answer, so it is a configuration error,
   * named with the setting that sends heavy commands elsewhere. Not a 503 of its own: nothing to
   * retry later.
   */
  private YtHttpException controlProxy(YtHttpException error, ProxyTarget target) {
    String fix =
        config.discoverHeavyProxies()
            ? "with yt.http.discoverHeavyProxies=true heavy commands go to the data proxies /hosts"
                + " lists, and to the cluster address when it lists none, as here; give the address"
                + " of a data proxy, or of a cluster whose /hosts lists data proxies"
            : "heavy commands go to the cluster address because yt.http.discoverHeavyProxies=false;"
                + " set it to true (the default) so they go to the data proxies /hosts lists, or"
                + " give the address of a data proxy";
    return new YtHttpException(
        YtErrorCode.GENERIC,
        error.command()
            + " to "
            + target.current()
            + " was refused: it is a control proxy, which may not serve heavy requests with input"
            + " data; "
            + fix
            + ". Not retried.",
        List.of(),
        error.httpStatus(),
        error.command(),
        Optional.empty(),
        error.serverMessage());
  }

  /**
   * A proxy that cannot be left refused the call and asks for a wait past its deadline: a
   * transaction's proxy (the transaction is lost with it: nothing else holds it), or every heavy
   * proxy at once. The codes stay (503, 2100 or 108), so a commit is retried later with a new
   * transaction.
   */
  private YtHttpException unavailable(
      YtHttpException error, ProxyTarget target, URI proxy, Duration retryAfter) {
    String where =
        target.kind() == ProxyTarget.Kind.TRANSACTION
            ? "the tablet transaction lives on that proxy alone (its sticky pool), so it cannot"
                + " move: it is lost, and the work must be redone in a new transaction"
            : "every heavy proxy /hosts lists refused it or could not be reached (each is banned"
                + " locally for yt.http.proxyBanMs="
                + config.failover().banTime().toMillis()
                + ")";
    return error.withMessage(
        error.getMessage()
            + "; proxy "
            + proxy
            + " is unavailable and asks for a retry after "
            + retryAfter.toSeconds()
            + " s, past this request's deadline (yt.http.requestTimeoutMs="
            + config.requestTimeout().toMillis()
            + " from its start); "
            + where);
  }

  /**
   * An answer over the client's limits ({@link AnswerOverLimit}): the proxy did answer, so a
   * commit's outcome is its status, never unknown. A proxy sends 2xx for a structured command only
   * after it ran ({@code context.cpp}, {@code Run}: the body is written once the driver finished),
   * so a 2xx commit succeeded; an error status failed before or while running.
   */
  private byte[] overLimit(Command command, URI proxy, Repeat repeat, AnswerOverLimit e) {
    int status = e.status();
    String what = command.wireName() + " to " + proxy + ": " + describe(e);
    if (status >= 200 && status < 300) {
      if (repeat == Repeat.COMMIT && command.output() == Command.Output.STRUCTURED) {
        return new byte[0];
      }
      throw new YtTransportException(what + "; the proxy answered HTTP " + status, e);
    }
    throw new YtHttpException(
        status,
        what + "; the proxy refused the request (HTTP " + status + ")",
        List.of(),
        status,
        command.wireName());
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
        || command == Command.PUSH_QUEUE_PRODUCER
        || command == Command.WRITE_TABLE) {
      headers.add("X-YT-Input-Format");
      headers.add(YsonRows.FORMAT);
    } else if (command == Command.SET) {
      // set's structured input: an attribute value as JSON text.
      headers.add("X-YT-Input-Format");
      headers.add(JSON_FORMAT);
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
    sleep(capped / 2 + ThreadLocalRandom.current().nextLong(capped / 2 + 1));
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
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
