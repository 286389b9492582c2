package io.ytstream.ytsaurus.http;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;

/**
 * A blocking HTTP/1.1 client: a request is written and its whole answer read on the calling thread,
 * over a kept-alive connection from a pool ({@link Http11Connection}).
 *
 * <p>Why not the JDK's {@code HttpClient}: it reads on a selector thread into 16 KB buffers and
 * hands each to the caller through its executor; for answers of a megabyte (a pull of 10,000 rows)
 * that machinery cost two to four times the CPU per byte of a blocking read into one array,
 * measured side by side on the same answers. A Spark task reads on its own thread anyway.
 *
 * <p>What it keeps of the JDK client's behaviour: an interrupt of the calling thread ends the
 * request at once (the connection is a blocking {@code SocketChannel}'s, which an interrupt
 * closes); a connect or TLS failure is a {@link java.net.ConnectException} (nothing was sent);
 * redirects are followed as {@code Redirect.NORMAL} does (never from https to http, 303 and a
 * POST's 301/302 become a GET without a body, 307/308 resend the request as it was); a GET whose
 * kept-alive connection turns out closed by the server before any answer is sent once more on a new
 * connection. The request's timeout bounds the whole exchange, redirects included.
 */
public final class Http11Client implements AutoCloseable {

  private static final int MAX_REDIRECTS = 5;
  private static final int MAX_IDLE_PER_ROUTE = 16;
  // Below the keep-alive timeouts of common servers (the emulator's is 60 s).
  private static final long MAX_IDLE_NANOS = Duration.ofSeconds(30).toNanos();

  private final Optional<SSLContext> tls;
  private final long connectMillis;
  private final Map<Http11Connection.Route, ArrayDeque<Http11Connection>> idle = new HashMap<>();
  private SSLContext defaultTls;
  private boolean closed;

  /** {@code tls}: the context for https addresses; empty: the JVM's default. */
  public Http11Client(Optional<SSLContext> tls, Duration connectTimeout) {
    this.tls = tls;
    this.connectMillis = Math.max(1, connectTimeout.toMillis());
  }

  /**
   * Sends {@code method uri} with {@code headers} (name, value, name, value, ...) and {@code body}
   * (null: none) and returns the answer, whatever its status.
   *
   * @throws IllegalArgumentException a header name or value that cannot be sent as is (a line
   *     break, a character outside ISO-8859-1); the value itself is not in the message, it may be a
   *     secret
   */
  public HttpAnswer send(
      String method, URI uri, List<String> headers, byte[] body, Duration timeout)
      throws IOException {
    checkHeaders(headers);
    long deadline = System.nanoTime() + timeout.toNanos();
    String currentMethod = method;
    URI current = uri;
    byte[] currentBody = body;
    for (int redirects = 0; ; redirects++) {
      HttpAnswer answer;
      try {
        answer = exchange(currentMethod, current, headers, currentBody, deadline);
      } catch (SocketTimeoutException e) {
        SocketTimeoutException late =
            new SocketTimeoutException(
                "no answer from " + route(current) + " within " + timeout.toMillis() + " ms");
        late.initCause(e);
        throw late;
      }
      Optional<String> location = answer.headers().firstValue("Location");
      if (!isRedirect(answer.status()) || location.isEmpty() || redirects == MAX_REDIRECTS) {
        return answer;
      }
      URI next = current.resolve(location.get());
      if ("https".equalsIgnoreCase(current.getScheme())
          && !"https".equalsIgnoreCase(next.getScheme())) {
        return answer;
      }
      int status = answer.status();
      if (status == 303 || ((status == 301 || status == 302) && currentMethod.equals("POST"))) {
        currentMethod = "GET";
        currentBody = null;
      }
      current = next;
    }
  }

  private static boolean isRedirect(int status) {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
  }

  private HttpAnswer exchange(
      String method, URI uri, List<String> headers, byte[] body, long deadline) throws IOException {
    Http11Connection.Route route = route(uri);
    String target = target(uri);
    Http11Connection connection = borrow(route);
    boolean reused = connection != null;
    if (connection == null) {
      connection = Http11Connection.open(route, tls(route), connectMillis, deadline);
    }
    try {
      HttpAnswer answer = connection.exchange(method, target, route, headers, body, deadline);
      giveBack(route, connection);
      return answer;
    } catch (Http11Connection.NoAnswer e) {
      connection.close();
      if (!reused || !method.equals("GET")) {
        throw e;
      }
    } catch (IOException | RuntimeException e) {
      connection.close();
      throw e;
    }
    // The server had closed the kept-alive connection: a GET is sent once more on a new one.
    Http11Connection fresh = Http11Connection.open(route, tls(route), connectMillis, deadline);
    try {
      HttpAnswer answer = fresh.exchange(method, target, route, headers, body, deadline);
      giveBack(route, fresh);
      return answer;
    } catch (IOException | RuntimeException e) {
      fresh.close();
      throw e;
    }
  }

  private static Http11Connection.Route route(URI uri) {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new IllegalArgumentException("not an http(s) address: " + uri);
    }
    if (uri.getHost() == null) {
      throw new IllegalArgumentException("an address without a host: " + uri);
    }
    boolean https = scheme.equals("https");
    String host = uri.getHost();
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port = uri.getPort() >= 0 ? uri.getPort() : https ? 443 : 80;
    return new Http11Connection.Route(https, host, port);
  }

  private static String target(URI uri) {
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
  }

  private synchronized SSLContext tls(Http11Connection.Route route) throws IOException {
    if (!route.https()) {
      return null;
    }
    if (tls.isPresent()) {
      return tls.get();
    }
    if (defaultTls == null) {
      try {
        defaultTls = SSLContext.getDefault();
      } catch (NoSuchAlgorithmException e) {
        throw new IOException("the JVM has no default TLS context", e);
      }
    }
    return defaultTls;
  }

  private Http11Connection borrow(Http11Connection.Route route) {
    long now = System.nanoTime();
    while (true) {
      Http11Connection connection;
      synchronized (this) {
        ArrayDeque<Http11Connection> pool = idle.get(route);
        connection = pool == null ? null : pool.pollLast();
      }
      if (connection == null) {
        return null;
      }
      if (now - connection.idleSince() < MAX_IDLE_NANOS && connection.stillOpen()) {
        return connection;
      }
      connection.close();
    }
  }

  private void giveBack(Http11Connection.Route route, Http11Connection connection) {
    if (!connection.reusable()) {
      connection.close();
      return;
    }
    connection.idleFrom(System.nanoTime());
    synchronized (this) {
      if (!closed) {
        ArrayDeque<Http11Connection> pool = idle.computeIfAbsent(route, r -> new ArrayDeque<>());
        if (pool.size() < MAX_IDLE_PER_ROUTE) {
          pool.addLast(connection);
          return;
        }
      }
    }
    connection.close();
  }

  private static void checkHeaders(List<String> headers) {
    if (headers.size() % 2 != 0) {
      throw new IllegalArgumentException("headers come as name, value pairs");
    }
    for (int i = 0; i < headers.size(); i += 2) {
      String name = headers.get(i);
      if (name.isEmpty() || !isToken(name)) {
        throw new IllegalArgumentException("not an HTTP header name: \"" + name + "\"");
      }
      String value = headers.get(i + 1);
      for (int c = 0; c < value.length(); c++) {
        char ch = value.charAt(c);
        if (ch == '\r' || ch == '\n' || ch > 0xff || (ch < 0x20 && ch != '\t')) {
          throw new IllegalArgumentException(
              "the value of header " + name + " has a character HTTP cannot carry (at " + c + ")");
        }
      }
    }
  }

  private static boolean isToken(String name) {
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** Closes the idle connections; requests after this still work, on connections not kept. */
  @Override
  public void close() {
    List<ArrayDeque<Http11Connection>> pools;
    synchronized (this) {
      closed = true;
      pools = List.copyOf(idle.values());
      idle.clear();
    }
    for (ArrayDeque<Http11Connection> pool : pools) {
      pool.forEach(Http11Connection::close);
    }
  }
}
