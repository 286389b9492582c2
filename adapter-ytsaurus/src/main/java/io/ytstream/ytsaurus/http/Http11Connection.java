package io.ytstream.ytsaurus.http;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpHeaders;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * One keep-alive HTTP/1.1 connection, used by one thread at a time: a request written, its answer
 * read whole on the calling thread. The socket is a blocking {@link SocketChannel}'s, so an
 * interrupt of the calling thread closes it and ends a wait at once; {@code https} layers an {@link
 * SSLSocket} over it, with host name verification.
 */
final class Http11Connection implements AutoCloseable {

  private static final int BUFFER = 64 * 1024;
  private static final int MAX_HEAD = 64 * 1024;
  // A cut line keeps this much of its start, where the field's name is.
  private static final int CUT_LINE_KEEPS = 256;
  // Fields without which the body cannot be read: never left out.
  private static final List<String> FRAMING =
      List.of("Content-Length", "Transfer-Encoding", "Connection");
  private static final int MAX_ARRAY = Integer.MAX_VALUE - 16;
  private static final HttpHeaders NONE = HttpHeaders.of(Map.of(), (name, value) -> true);

  private final SocketChannel channel;
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final byte[] buffer = new byte[BUFFER];
  private int position;
  private int limit;
  // Whether the last line read was longer than the buffer and came back cut.
  private boolean lastLineCut;
  private boolean reusable;
  private long idleSince;
  // When the request under way must have its answer (System.nanoTime()).
  private long deadline;

  private Http11Connection(SocketChannel channel, Socket socket) throws IOException {
    this.channel = channel;
    this.socket = socket;
    this.in = socket.getInputStream();
    this.out = socket.getOutputStream();
  }

  /** The address's scheme, host and port, as the pool keys connections. */
  record Route(boolean https, String host, int port) {
    String hostHeader() {
      boolean defaultPort = port == (https ? 443 : 80);
      String name = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
      return defaultPort ? name : name + ":" + port;
    }

    @Override
    public String toString() {
      return (https ? "https://" : "http://") + hostHeader();
    }
  }

  /**
   * Connects, and for {@code https} completes the TLS handshake, before {@code deadline} (nanoTime)
   * and within {@code connectMillis}. Any failure is a {@link ConnectException} (the request was
   * not sent) whose cause says what failed, a TLS handshake's included.
   */
  static Http11Connection open(Route route, SSLContext tls, long connectMillis, long deadline)
      throws ConnectException {
    SocketChannel channel = null;
    try {
      InetSocketAddress address = new InetSocketAddress(route.host(), route.port());
      if (address.isUnresolved()) {
        throw new UnknownHostException(route.host());
      }
      channel = SocketChannel.open();
      Socket plain = channel.socket();
      plain.setTcpNoDelay(true);
      plain.connect(address, (int) Math.max(1, Math.min(connectMillis, remainingMillis(deadline))));
      Socket socket = plain;
      if (route.https()) {
        SSLSocket secure =
            (SSLSocket)
                tls.getSocketFactory().createSocket(plain, route.host(), route.port(), true);
        SSLParameters parameters = secure.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        if (!isLiteralAddress(route.host())) {
          parameters.setServerNames(List.of(new SNIHostName(route.host())));
        }
        secure.setSSLParameters(parameters);
        secure.setSoTimeout(timeoutMillis(deadline));
        secure.startHandshake();
        socket = secure;
      }
      return new Http11Connection(channel, socket);
    } catch (IOException | RuntimeException e) {
      closeQuietly(channel);
      ConnectException failed =
          new ConnectException("cannot connect to " + route + ": " + describe(e));
      failed.initCause(e);
      throw failed;
    }
  }

  private static boolean isLiteralAddress(String host) {
    return host.indexOf(':') >= 0 || host.chars().allMatch(c -> c == '.' || Character.isDigit(c));
  }

  /**
   * Writes the request and reads its answer. Throws {@link NoAnswer} when the connection ended
   * before the first byte of an answer (a kept-alive connection the server had closed), other
   * {@link IOException}s for the rest; the connection is unusable after either.
   */
  HttpAnswer exchange(
      String method, String target, Route route, List<String> headers, byte[] body, long deadline)
      throws IOException {
    reusable = false;
    this.deadline = deadline;
    write(method, target, route, headers, body);
    int status;
    TreeMap<String, List<String>> fields;
    String version;
    List<String> dropped = new ArrayList<>();
    do {
      dropped.clear();
      String statusLine = readLine(true, true);
      version = statusLine.length() >= 8 ? statusLine.substring(0, 8) : statusLine;
      status = parseStatus(statusLine);
      fields = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      readFieldsInto(fields, status, dropped);
    } while (status >= 100 && status < 200);
    HttpHeaders answerHeaders = HttpHeaders.of(fields, (name, value) -> true);
    boolean close =
        hasToken(fields, "Connection", "close")
            || (version.equals("HTTP/1.0") && !hasToken(fields, "Connection", "keep-alive"));
    byte[] answerBody;
    HttpHeaders trailers = NONE;
    boolean untilClosed = false;
    if (method.equals("HEAD") || status == 204 || status == 304) {
      answerBody = new byte[0];
    } else if (hasToken(fields, "Transfer-Encoding", "chunked")) {
      TreeMap<String, List<String>> trailerFields = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      answerBody = readChunked(trailerFields, status, dropped);
      trailers = HttpHeaders.of(trailerFields, (name, value) -> true);
    } else if (fields.containsKey("Content-Length")) {
      answerBody = readFixed(contentLength(fields, status));
    } else {
      answerBody = readUntilClosed();
      untilClosed = true;
    }
    reusable = !close && !untilClosed && position == limit;
    return new HttpAnswer(status, answerHeaders, answerBody, trailers, dropped);
  }

  /** Whether the last answer left the connection fit for another request. */
  boolean reusable() {
    return reusable;
  }

  void idleFrom(long nanoTime) {
    idleSince = nanoTime;
  }

  long idleSince() {
    return idleSince;
  }

  /**
   * Whether an idle connection is still open with nothing unread: a server that closed it (its
   * keep-alive timeout) or sent anything unasked makes it unfit. Reads without waiting.
   */
  boolean stillOpen() {
    if (position != limit || !channel.isOpen()) {
      return false;
    }
    try {
      channel.configureBlocking(false);
      try {
        return channel.read(ByteBuffer.allocate(1)) == 0;
      } finally {
        channel.configureBlocking(true);
      }
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  @Override
  public void close() {
    reusable = false;
    try {
      socket.close();
    } catch (IOException e) {
      // Closing an unusable connection: nothing more to do.
    }
    closeQuietly(channel);
  }

  /** The connection ended before an answer began: the server may not have read the request. */
  static final class NoAnswer extends EOFException {
    private static final long serialVersionUID = 1L;

    NoAnswer(String message) {
      super(message);
    }
  }

  private void write(String method, String target, Route route, List<String> headers, byte[] body)
      throws IOException {
    StringBuilder head = new StringBuilder(256 + headers.size() * 32);
    head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
    head.append("Host: ").append(route.hostHeader()).append("\r\n");
    for (int i = 0; i < headers.size(); i += 2) {
      head.append(headers.get(i)).append(": ").append(headers.get(i + 1)).append("\r\n");
    }
    if (body != null) {
      head.append("Content-Length: ").append(body.length).append("\r\n");
    } else if (!method.equals("GET") && !method.equals("HEAD")) {
      head.append("Content-Length: 0\r\n");
    }
    head.append("\r\n");
    byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
    if (body != null && body.length <= BUFFER) {
      byte[] whole = Arrays.copyOf(headBytes, headBytes.length + body.length);
      System.arraycopy(body, 0, whole, headBytes.length, body.length);
      out.write(whole);
    } else {
      out.write(headBytes);
      if (body != null) {
        out.write(body);
      }
    }
    out.flush();
  }

  private static int parseStatus(String line) throws IOException {
    // HTTP/1.1 200 OK
    if (!line.startsWith("HTTP/1.") || line.length() < 12 || line.charAt(8) != ' ') {
      throw new IOException("not an HTTP/1.x status line: " + printable(line));
    }
    try {
      return Integer.parseInt(line.substring(9, 12));
    } catch (NumberFormatException e) {
      throw new IOException("not an HTTP/1.x status line: " + printable(line), e);
    }
  }

  /**
   * Header (or trailer) fields up to {@link #MAX_HEAD} bytes in all; a field past that, or one line
   * longer than the read buffer, is read past and left out, its name added to {@code dropped}: the
   * proxy repeats a whole error, however deeply nested, in {@code X-YT-Error}, and an oversized one
   * must not cost the answer whose body holds the same error. What is left out costs no memory; the
   * request's deadline bounds the time. Only a framing field cannot be left out ({@link
   * AnswerOverLimit}).
   */
  private void readFieldsInto(
      TreeMap<String, List<String>> fields, int status, List<String> dropped) throws IOException {
    int kept = 0;
    for (String line = readLine(false, true); !line.isEmpty(); line = readLine(false, true)) {
      int colon = line.indexOf(':');
      if (colon <= 0) {
        throw new IOException("not a header line: " + printable(line));
      }
      String name = line.substring(0, colon).strip();
      if (lastLineCut || kept + line.length() > MAX_HEAD) {
        if (FRAMING.stream().anyMatch(name::equalsIgnoreCase)) {
          throw new AnswerOverLimit(
              status,
              "the answer (HTTP "
                  + status
                  + ") has a header section over "
                  + MAX_HEAD
                  + " bytes, its "
                  + printable(name)
                  + " field included");
        }
        dropped.add(name);
        continue;
      }
      kept += line.length();
      String value = line.substring(colon + 1).strip();
      fields.computeIfAbsent(name, n -> new ArrayList<>(1)).add(value);
    }
  }

  private static boolean hasToken(Map<String, List<String>> fields, String name, String token) {
    List<String> values = fields.get(name);
    if (values == null) {
      return false;
    }
    for (String value : values) {
      for (String part : value.split(",")) {
        if (part.strip().equalsIgnoreCase(token)) {
          return true;
        }
      }
    }
    return false;
  }

  private static int contentLength(Map<String, List<String>> fields, int status)
      throws IOException {
    String value = fields.get("Content-Length").get(0);
    try {
      long length = Long.parseLong(value.strip());
      if (length < 0) {
        throw new IOException("unsupported Content-Length " + length);
      }
      if (length > MAX_ARRAY) {
        throw new AnswerOverLimit(status, "an answer (HTTP " + status + ") over 2 GiB");
      }
      return (int) length;
    } catch (NumberFormatException e) {
      throw new IOException("malformed Content-Length: " + printable(value), e);
    }
  }

  private byte[] readFixed(int length) throws IOException {
    byte[] body = new byte[length];
    int buffered = Math.min(limit - position, length);
    System.arraycopy(buffer, position, body, 0, buffered);
    position += buffered;
    readFully(body, buffered, length);
    return body;
  }

  /**
   * A chunked body, into an array sized by the first chunk (an answer sent as one chunk is read
   * straight into the array returned) and grown by doubling for more.
   */
  private byte[] readChunked(
      TreeMap<String, List<String>> trailers, int status, List<String> dropped) throws IOException {
    byte[] body = new byte[0];
    int size = 0;
    while (true) {
      String line = readLine(false, false);
      int extension = line.indexOf(';');
      String hex = (extension < 0 ? line : line.substring(0, extension)).strip();
      int chunk;
      try {
        chunk = Integer.parseInt(hex, 16);
      } catch (NumberFormatException e) {
        throw new IOException("malformed chunk size: " + printable(line), e);
      }
      if (chunk < 0) {
        throw new IOException("malformed chunk size: " + printable(line));
      }
      if (chunk > MAX_ARRAY - size) {
        throw new AnswerOverLimit(status, "a chunked answer (HTTP " + status + ") over 2 GiB");
      }
      if (chunk == 0) {
        readFieldsInto(trailers, status, dropped);
        return size == body.length ? body : Arrays.copyOf(body, size);
      }
      if (size + chunk > body.length) {
        int grown = size == 0 ? chunk : (int) Math.min(body.length * 2L, MAX_ARRAY);
        body = Arrays.copyOf(body, Math.max(size + chunk, grown));
      }
      int buffered = Math.min(limit - position, chunk);
      System.arraycopy(buffer, position, body, size, buffered);
      position += buffered;
      readFully(body, size + buffered, size + chunk);
      size += chunk;
      if (!readLine(false, false).isEmpty()) {
        throw new IOException("a chunk is not followed by CRLF");
      }
    }
  }

  private byte[] readUntilClosed() throws IOException {
    int size = limit - position;
    byte[] body = Arrays.copyOfRange(buffer, position, position + Math.max(size, BUFFER));
    position = limit;
    while (true) {
      if (size == body.length) {
        body = Arrays.copyOf(body, (int) Math.min(body.length * 2L, MAX_ARRAY));
      }
      int n = read(body, size, body.length - size);
      if (n < 0) {
        return Arrays.copyOf(body, size);
      }
      size += n;
    }
  }

  /** Reads into {@code target[from, to)} straight from the socket (no copy through the buffer). */
  private void readFully(byte[] target, int from, int to) throws IOException {
    for (int at = from; at < to; ) {
      int n = read(target, at, to - at);
      if (n < 0) {
        throw new EOFException("the connection ended " + (to - at) + " bytes before the body did");
      }
      at += n;
    }
  }

  /**
   * A line of the head, without its CRLF (a bare LF is taken too). {@code first}: the status line,
   * where a connection that ends before any byte is {@link NoAnswer}. {@code cut}: a line longer
   * than the buffer comes back as its first {@link #CUT_LINE_KEEPS} bytes, the rest read and
   * discarded, and {@link #lastLineCut} set; else it fails.
   */
  private String readLine(boolean first, boolean cut) throws IOException {
    lastLineCut = false;
    int start = position;
    while (true) {
      for (int i = start; i < limit; i++) {
        if (buffer[i] == '\n') {
          int end = i > position && buffer[i - 1] == '\r' ? i - 1 : i;
          String line = new String(buffer, position, end - position, StandardCharsets.ISO_8859_1);
          position = i + 1;
          return line;
        }
      }
      start = limit;
      if (position > 0) {
        // Move the partial line to the front so the buffer can take more.
        System.arraycopy(buffer, position, buffer, 0, limit - position);
        start -= position;
        limit -= position;
        position = 0;
      }
      if (limit == buffer.length) {
        if (!cut) {
          throw new IOException("an answer line over " + BUFFER + " bytes");
        }
        String kept = new String(buffer, 0, CUT_LINE_KEEPS, StandardCharsets.ISO_8859_1);
        skipRestOfLine();
        lastLineCut = true;
        return kept;
      }
      int n = read(buffer, limit, buffer.length - limit);
      if (n < 0) {
        if (first && limit == 0) {
          throw new NoAnswer("the connection ended before an answer");
        }
        throw new EOFException("the connection ended inside the answer's head");
      }
      limit += n;
    }
  }

  /**
   * Reads past the line that fills the buffer, to just after its LF; what follows it stays
   * buffered.
   */
  private void skipRestOfLine() throws IOException {
    position = 0;
    limit = 0;
    while (true) {
      int n = read(buffer, 0, buffer.length);
      if (n < 0) {
        throw new EOFException("the connection ended inside the answer's head");
      }
      for (int i = 0; i < n; i++) {
        if (buffer[i] == '\n') {
          position = i + 1;
          limit = n;
          return;
        }
      }
    }
  }

  private int read(byte[] target, int offset, int length) throws IOException {
    socket.setSoTimeout(timeoutMillis(deadline));
    try {
      return in.read(target, offset, length);
    } catch (SocketTimeoutException e) {
      throw new SocketTimeoutException("no answer within the request's timeout");
    }
  }

  private static int timeoutMillis(long deadline) throws SocketTimeoutException {
    long remaining = remainingMillis(deadline);
    if (remaining <= 0) {
      throw new SocketTimeoutException("no answer within the request's timeout");
    }
    return (int) Math.min(Integer.MAX_VALUE, remaining);
  }

  private static long remainingMillis(long deadline) {
    return (deadline - System.nanoTime()) / 1_000_000;
  }

  private static String describe(Exception e) {
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }

  private static String printable(String line) {
    String cut = line.length() > 80 ? line.substring(0, 80) + "..." : line;
    StringBuilder out = new StringBuilder(cut.length() + 2).append('"');
    for (char c : cut.toCharArray()) {
      out.append(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return out.append('"').toString();
  }

  private static void closeQuietly(SocketChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        // Already failed or closed.
      }
    }
  }
}
