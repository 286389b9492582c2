package io.ytstream.ytsaurus.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A loopback server that answers with bytes written by hand, connection by connection: the
 * situations a client must survive that a well-behaved server rarely makes (trailers, a kept-alive
 * connection closed under a request, an answer without a length). It records each request it read
 * and how many connections it accepted.
 */
public final class RawHttpPeer implements AutoCloseable {

  /** One request as read: its head (request line and headers) and its body. */
  public record Request(String head, byte[] body) {
    public String requestLine() {
      return head.substring(0, head.indexOf("\r\n"));
    }

    public String header(String name) {
      for (String line : head.split("\r\n")) {
        int colon = line.indexOf(':');
        if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
          return line.substring(colon + 1).strip();
        }
      }
      return null;
    }
  }

  /** What one accepted connection does. */
  @FunctionalInterface
  public interface Script {
    void run(Connection connection) throws IOException, InterruptedException;
  }

  /** An accepted connection: read a request, write bytes. */
  public final class Connection {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    Connection(Socket socket) throws IOException {
      this.socket = socket;
      this.in = socket.getInputStream();
      this.out = socket.getOutputStream();
    }

    /** The next request (Content-Length bodies only), recorded; null when the client closed. */
    public Request read() throws IOException {
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      int matched = 0;
      while (matched < 4) {
        int b = in.read();
        if (b < 0) {
          return null;
        }
        head.write(b);
        matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
      }
      String text = head.toString(StandardCharsets.ISO_8859_1);
      Request partial = new Request(text, new byte[0]);
      String length = partial.header("Content-Length");
      byte[] body = in.readNBytes(length == null ? 0 : Integer.parseInt(length));
      Request request = new Request(text, body);
      requests.add(request);
      return request;
    }

    public void write(String ascii) throws IOException {
      write(ascii.getBytes(StandardCharsets.ISO_8859_1));
    }

    public void write(byte[] bytes) throws IOException {
      out.write(bytes);
      out.flush();
    }

    public void close() throws IOException {
      socket.close();
    }
  }

  private final ServerSocket server;
  private final LinkedBlockingQueue<Script> scripts = new LinkedBlockingQueue<>();
  private final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
  private final List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
  private final Thread acceptor;
  private volatile int accepted;

  public RawHttpPeer() {
    try {
      server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    acceptor = new Thread(this::acceptLoop, "raw-http-peer");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** The script of the next connection accepted. */
  public RawHttpPeer then(Script script) {
    scripts.add(script);
    return this;
  }

  public String url() {
    return "http://127.0.0.1:" + server.getLocalPort();
  }

  public List<Request> requests() {
    return List.copyOf(requests);
  }

  public int accepted() {
    return accepted;
  }

  /** What went wrong on the server's side (a script that threw), for the test to show. */
  public List<Throwable> failures() {
    return List.copyOf(failures);
  }

  /** {@code HTTP/1.1 <status>} with a Content-Length body. */
  public static String answer(int status, String body, String... headers) {
    StringBuilder out = new StringBuilder("HTTP/1.1 " + status + " X\r\n");
    for (String header : headers) {
      out.append(header).append("\r\n");
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    out.append("Content-Length: ").append(bytes.length).append("\r\n\r\n").append(body);
    return out.toString();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      Socket socket;
      try {
        socket = server.accept();
      } catch (IOException e) {
        return;
      }
      accepted++;
      Thread thread =
          new Thread(
              () -> {
                try (socket) {
                  Script script = scripts.poll(10, TimeUnit.SECONDS);
                  if (script != null) {
                    script.run(new Connection(socket));
                  }
                } catch (IOException | InterruptedException | RuntimeException e) {
                  if (!server.isClosed()) {
                    failures.add(e);
                  }
                }
              },
              "raw-http-peer-" + accepted);
      thread.setDaemon(true);
      thread.start();
    }
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
