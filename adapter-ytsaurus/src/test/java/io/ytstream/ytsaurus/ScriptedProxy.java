package io.ytstream.ytsaurus;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A loopback HTTP server that answers with scripted responses, to put the client in situations a
 * correct server rarely produces (503 then success, a dropped connection, a gap in row indexes). It
 * records what it received.
 */
final class ScriptedProxy implements AutoCloseable {

  /** What one request received: the main fields, every header's first value, and the body. */
  record Received(
      String method,
      String path,
      String parameters,
      String authorization,
      Map<String, String> headers,
      byte[] body) {

    /** A header's first value (names compared case-insensitively), or null. */
    String header(String name) {
      for (Map.Entry<String, String> e : headers.entrySet()) {
        if (e.getKey().equalsIgnoreCase(name)) {
          return e.getValue();
        }
      }
      return null;
    }
  }

  /** One scripted answer. */
  @FunctionalInterface
  interface Step {
    void answer(HttpExchange exchange) throws IOException;
  }

  private final HttpServer server;
  private final Deque<Step> steps = new ArrayDeque<>();
  private final List<Received> received = Collections.synchronizedList(new ArrayList<>());

  ScriptedProxy() {
    System.setProperty("sun.net.httpserver.nodelay", "true");
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext("/", this::handle);
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  ScriptedProxy then(Step step) {
    synchronized (steps) {
      steps.add(step);
    }
    return this;
  }

  /**
   * A client config for this server: cluster name "scripted" (no {@code //sys/@cluster_name} read),
   * 3 attempts 5 ms apart, no heavy-proxy discovery.
   */
  YtsaurusClientConfig config(String token) {
    return new YtsaurusClientConfig(
        URI.create(url()),
        Optional.of(OAuthToken.of(token)),
        Optional.of("scripted"),
        Duration.ofSeconds(2),
        Duration.ofSeconds(2),
        3,
        Duration.ofMillis(5),
        false,
        Optional.empty(),
        RequestLogger.NONE,
        ProxyFailover.DEFAULTS);
  }

  List<Received> received() {
    return List.copyOf(received);
  }

  private void handle(HttpExchange exchange) throws IOException {
    byte[] body = exchange.getRequestBody().readAllBytes();
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    exchange.getRequestHeaders().forEach((k, v) -> headers.put(k, v.get(0)));
    received.add(
        new Received(
            exchange.getRequestMethod(),
            exchange.getRequestURI().getPath(),
            exchange.getRequestHeaders().getFirst("X-YT-Parameters"),
            exchange.getRequestHeaders().getFirst("Authorization"),
            headers,
            body));
    Step step;
    synchronized (steps) {
      step = steps.poll();
    }
    if (step == null) {
      step = status(500, "{\"code\":1,\"message\":\"no scripted answer left\"}");
    }
    step.answer(exchange);
    exchange.close();
  }

  static Step status(int status, String body) {
    return exchange -> {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      if (bytes.length > 0) {
        exchange.getResponseBody().write(bytes);
      }
    };
  }

  static Step ok(String body) {
    return status(200, body);
  }

  /** 200 with these bytes as the body (rows in binary YSON, a file). */
  static Step okBytes(byte[] body) {
    return exchange -> {
      exchange.sendResponseHeaders(200, body.length == 0 ? -1 : body.length);
      if (body.length > 0) {
        exchange.getResponseBody().write(body);
      }
    };
  }

  /** As {@link #okBytes}, with {@code X-YT-Response-Parameters} (e.g. a pull's start_offset). */
  static Step okBytes(byte[] body, String responseParameters) {
    return exchange -> {
      exchange.getResponseHeaders().set("X-YT-Response-Parameters", responseParameters);
      okBytes(body).answer(exchange);
    };
  }

  /** Closes the connection without any answer: the response is lost. */
  static Step drop() {
    return exchange -> exchange.close();
  }

  static Step errorHeaderOnly(int status, String errorJson) {
    return exchange -> {
      exchange.getResponseHeaders().set("X-YT-Error", errorJson);
      exchange.sendResponseHeaders(status, -1);
    };
  }

  static Step slow(long millis, Step then) {
    return exchange -> {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      then.answer(exchange);
    };
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
