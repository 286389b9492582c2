package io.ytstream.emulator;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One request and its answer on an {@link Http11Server} connection. {@code sendResponseHeaders}
 * follows the JDK's contract (length 0: chunked; -1: no body); a chunked answer ends with the
 * {@link #trailers()} set by then.
 */
final class Http11Exchange extends HttpExchange {

  private static final int MAX_LINE = 64 * 1024;

  private final String method;
  private final URI uri;
  private final String protocol;
  private final Headers requestHeaders;
  private final Headers responseHeaders = new Headers();
  private final Headers trailers = new Headers();
  private final InputStream requestBody;
  private final OutputStream raw;
  private final Socket socket;
  private final int localPort;
  private final Map<String, Object> attributes = new HashMap<>();
  private boolean keepAlive;
  private int responseCode = -1;
  private OutputStream responseBody;
  private boolean closed;

  private Http11Exchange(
      String method,
      URI uri,
      String protocol,
      Headers requestHeaders,
      InputStream requestBody,
      OutputStream raw,
      Socket socket,
      int localPort,
      boolean keepAlive) {
    this.method = method;
    this.uri = uri;
    this.protocol = protocol;
    this.requestHeaders = requestHeaders;
    this.requestBody = requestBody;
    this.raw = raw;
    this.socket = socket;
    this.localPort = localPort;
    this.keepAlive = keepAlive;
  }

  /** The next request on a connection, or null at its clean end. */
  static Http11Exchange read(InputStream in, OutputStream out, Socket socket, int localPort)
      throws IOException {
    String requestLine = line(in);
    while (requestLine != null && requestLine.isEmpty()) {
      requestLine = line(in); // tolerated: blank lines between requests
    }
    if (requestLine == null) {
      return null;
    }
    String[] parts = requestLine.split(" ");
    if (parts.length != 3) {
      throw new IOException("malformed request line: " + requestLine);
    }
    Headers headers = new Headers();
    for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
      int colon = header.indexOf(':');
      if (colon <= 0) {
        throw new IOException("malformed header: " + header);
      }
      headers.add(header.substring(0, colon).strip(), header.substring(colon + 1).strip());
    }
    String protocol = parts[2];
    String connection = String.valueOf(headers.getFirst("Connection")).toLowerCase(Locale.ROOT);
    boolean keepAlive =
        protocol.equals("HTTP/1.1")
            ? !connection.contains("close")
            : connection.contains("keep-alive");
    InputStream body;
    String encoding = headers.getFirst("Transfer-Encoding");
    if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
      body = new ChunkedInput(in);
    } else {
      String length = headers.getFirst("Content-Length");
      body = new LimitedInput(in, length == null ? 0 : Long.parseLong(length.strip()));
    }
    if ("100-continue".equalsIgnoreCase(headers.getFirst("Expect"))) {
      out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
    }
    URI uri;
    try {
      uri = new URI(parts[1]);
    } catch (java.net.URISyntaxException e) {
      throw new IOException("malformed request target: " + parts[1], e);
    }
    return new Http11Exchange(
        parts[0], uri, protocol, headers, body, out, socket, localPort, keepAlive);
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
    int c;
    while ((c = in.read()) != -1) {
      if (c == '\n') {
        byte[] line = bytes.toByteArray();
        int end = line.length > 0 && line[line.length - 1] == '\r' ? line.length - 1 : line.length;
        return new String(line, 0, end, StandardCharsets.ISO_8859_1);
      }
      bytes.write(c);
      if (bytes.size() > MAX_LINE) {
        throw new IOException("request line or header longer than " + MAX_LINE + " bytes");
      }
    }
    if (bytes.size() > 0) {
      throw new IOException("connection closed in the middle of a line");
    }
    return null;
  }

  /** Headers sent after the last chunk of a chunked answer. */
  Headers trailers() {
    return trailers;
  }

  boolean keepAlive() {
    return keepAlive;
  }

  /** Whether the status line and headers are out (a failure now can only be reported late). */
  boolean headersSent() {
    return responseCode != -1;
  }

  void drainRequestBody() throws IOException {
    byte[] buffer = new byte[8192];
    while (requestBody.read(buffer) != -1) {
      // discard what the handler did not read
    }
  }

  @Override
  public Headers getRequestHeaders() {
    return requestHeaders;
  }

  @Override
  public Headers getResponseHeaders() {
    return responseHeaders;
  }

  @Override
  public URI getRequestURI() {
    return uri;
  }

  @Override
  public String getRequestMethod() {
    return method;
  }

  @Override
  public HttpContext getHttpContext() {
    return null;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (responseCode == -1) {
        // No answer at all (a lost response): the connection just ends.
        keepAlive = false;
      } else if (responseBody != null) {
        responseBody.close();
      }
      raw.flush();
    } catch (IOException e) {
      keepAlive = false;
    }
  }

  @Override
  public InputStream getRequestBody() {
    return requestBody;
  }

  @Override
  public OutputStream getResponseBody() {
    if (responseBody == null) {
      throw new IllegalStateException("sendResponseHeaders must come first");
    }
    return responseBody;
  }

  @Override
  public void sendResponseHeaders(int code, long length) throws IOException {
    if (responseCode != -1) {
      throw new IOException("headers already sent");
    }
    responseCode = code;
    StringBuilder head = new StringBuilder(256);
    head.append("HTTP/1.1 ").append(code).append(' ').append(reason(code)).append("\r\n");
    responseHeaders.remove("Content-Length");
    responseHeaders.remove("Transfer-Encoding");
    if (length > 0) {
      responseHeaders.set("Content-Length", Long.toString(length));
      responseBody = new FixedOutput(raw, length);
    } else if (length == 0) {
      responseHeaders.set("Transfer-Encoding", "chunked");
      responseBody = new ChunkedOutput(raw, trailers);
    } else {
      responseHeaders.set("Content-Length", "0");
      responseBody = new FixedOutput(raw, 0);
    }
    if (!keepAlive) {
      responseHeaders.set("Connection", "close");
    }
    for (Map.Entry<String, List<String>> header : responseHeaders.entrySet()) {
      for (String value : header.getValue()) {
        head.append(header.getKey()).append(": ").append(value).append("\r\n");
      }
    }
    head.append("\r\n");
    raw.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    if (length < 0) {
      raw.flush();
    }
  }

  private static String reason(int code) {
    return switch (code) {
      case 200 -> "OK";
      case 307 -> "Temporary Redirect";
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 500 -> "Internal Server Error";
      case 503 -> "Service Unavailable";
      default -> "Status";
    };
  }

  @Override
  public InetSocketAddress getRemoteAddress() {
    return (InetSocketAddress) socket.getRemoteSocketAddress();
  }

  @Override
  public int getResponseCode() {
    return responseCode;
  }

  @Override
  public InetSocketAddress getLocalAddress() {
    return new InetSocketAddress(socket.getLocalAddress(), localPort);
  }

  @Override
  public String getProtocol() {
    return protocol;
  }

  @Override
  public Object getAttribute(String name) {
    return attributes.get(name);
  }

  @Override
  public void setAttribute(String name, Object value) {
    attributes.put(name, value);
  }

  @Override
  public void setStreams(InputStream in, OutputStream out) {
    throw new UnsupportedOperationException("the emulator's exchanges are not filtered");
  }

  @Override
  public HttpPrincipal getPrincipal() {
    return null;
  }

  // ---- body streams ----

  /** A request body of a known length. */
  private static final class LimitedInput extends InputStream {
    private final InputStream in;
    private long left;

    LimitedInput(InputStream in, long length) {
      this.in = in;
      this.left = length;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) == -1 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (left <= 0) {
        return -1;
      }
      int n = in.read(b, off, (int) Math.min(len, left));
      if (n == -1) {
        throw new IOException("request body ended " + left + " bytes early");
      }
      left -= n;
      return n;
    }
  }

  /** A chunked request body (trailers are read and dropped). */
  private static final class ChunkedInput extends InputStream {
    private final InputStream in;
    private long chunkLeft;
    private boolean done;

    ChunkedInput(InputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) == -1 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (done) {
        return -1;
      }
      if (chunkLeft == 0) {
        String size = line(in);
        if (size == null) {
          throw new IOException("chunked body ended early");
        }
        int semicolon = size.indexOf(';');
        chunkLeft =
            Long.parseLong((semicolon < 0 ? size : size.substring(0, semicolon)).strip(), 16);
        if (chunkLeft == 0) {
          for (String trailer = line(in);
              trailer != null && !trailer.isEmpty();
              trailer = line(in)) {
            // trailers of a request are ignored
          }
          done = true;
          return -1;
        }
      }
      int n = in.read(b, off, (int) Math.min(len, chunkLeft));
      if (n == -1) {
        throw new IOException("chunk ended early");
      }
      chunkLeft -= n;
      if (chunkLeft == 0) {
        line(in); // the CRLF after the chunk data
      }
      return n;
    }
  }

  /** An answer of a declared length. */
  private static final class FixedOutput extends OutputStream {
    private final OutputStream out;
    private long left;

    FixedOutput(OutputStream out, long length) {
      this.out = out;
      this.left = length;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (len > left) {
        throw new IOException("more bytes than the declared Content-Length");
      }
      out.write(b, off, len);
      left -= len;
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      out.flush();
      if (left != 0) {
        throw new IOException(left + " bytes short of the declared Content-Length");
      }
    }
  }

  /** A chunked answer; closing it writes the last chunk and the trailers. */
  private static final class ChunkedOutput extends OutputStream {
    private final OutputStream out;
    private final Headers trailers;
    private boolean closed;

    ChunkedOutput(OutputStream out, Headers trailers) {
      this.out = out;
      this.trailers = trailers;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return;
      }
      out.write((Integer.toHexString(len) + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(b, off, len);
      out.write('\r');
      out.write('\n');
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      StringBuilder end = new StringBuilder("0\r\n");
      for (Map.Entry<String, List<String>> trailer : trailers.entrySet()) {
        for (String value : trailer.getValue()) {
          end.append(trailer.getKey()).append(": ").append(value).append("\r\n");
        }
      }
      end.append("\r\n");
      out.write(end.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
    }
  }
}
