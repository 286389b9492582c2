package io.ytstream.emulator;

import com.sun.net.httpserver.HttpHandler;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;

/**
 * A small HTTP/1.1 server for one emulated proxy: persistent connections, request bodies with
 * {@code Content-Length} or chunked, answers with a fixed length or chunked. The JDK's {@code
 * HttpServer} cannot send chunked trailers, and a real proxy reports an error that happens after
 * the body started in trailers ({@code yt/yt/server/http_proxy/context.cpp}, {@code Finalize}):
 * here {@link Http11Exchange#trailers()} are written after the last chunk. Handlers are the JDK's
 * {@link HttpHandler}s over an {@link Http11Exchange}.
 */
final class Http11Server implements AutoCloseable {

  /** Idle keep-alive connections are closed after this long. */
  private static final int IDLE_TIMEOUT_MILLIS = 60_000;

  private final ServerSocket socket;
  private final HttpHandler handler;
  private final ExecutorService connections;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final Thread acceptor;
  private volatile boolean closed;

  private Http11Server(ServerSocket socket, HttpHandler handler, String name) {
    this.socket = socket;
    this.handler = handler;
    this.connections =
        Executors.newCachedThreadPool(
            runnable -> {
              Thread thread = new Thread(runnable, name);
              thread.setDaemon(true);
              return thread;
            });
    this.acceptor = new Thread(this::acceptLoop, name + "-accept");
    acceptor.setDaemon(true);
  }

  /** Binds {@code address} (HTTPS when {@code tls} is not null); {@link #start} serves it. */
  static Http11Server bind(InetSocketAddress address, SSLContext tls, HttpHandler handler)
      throws IOException {
    ServerSocket socket =
        tls == null ? new ServerSocket() : tls.getServerSocketFactory().createServerSocket();
    try {
      // A restart on the same port must not wait for connections of the last run in TIME_WAIT.
      socket.setReuseAddress(true);
      socket.bind(address, 64);
    } catch (IOException e) {
      socket.close();
      throw e;
    }
    return new Http11Server(socket, handler, "yt-emulator-proxy-" + address.getAddress());
  }

  InetSocketAddress address() {
    return (InetSocketAddress) socket.getLocalSocketAddress();
  }

  void start() {
    acceptor.start();
  }

  private void acceptLoop() {
    while (!closed) {
      Socket client;
      try {
        client = socket.accept();
      } catch (IOException e) {
        if (closed) {
          return;
        }
        continue;
      }
      open.add(client);
      connections.execute(() -> serve(client));
    }
  }

  private void serve(Socket client) {
    try (client) {
      // Headers and body go out separately; without TCP_NODELAY each answer would wait for the
      // client's delayed ACK.
      client.setTcpNoDelay(true);
      client.setSoTimeout(IDLE_TIMEOUT_MILLIS);
      InputStream in = new BufferedInputStream(client.getInputStream());
      OutputStream out = new BufferedOutputStream(client.getOutputStream(), 64 * 1024);
      while (!closed) {
        Http11Exchange exchange = Http11Exchange.read(in, out, client, socket.getLocalPort());
        if (exchange == null) {
          return;
        }
        try {
          handler.handle(exchange);
        } finally {
          exchange.close();
        }
        if (!exchange.keepAlive()) {
          return;
        }
        exchange.drainRequestBody();
      }
    } catch (SocketTimeoutException | SocketException | SSLException e) {
      // An idle, reset or failed connection: nothing to answer.
    } catch (IOException e) {
      // A malformed request or a client gone mid-answer ends the connection.
    } finally {
      open.remove(client);
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      socket.close();
    } catch (IOException e) {
      // closing anyway
    }
    // The listening socket is released only once the thread blocked in accept() has left it;
    // wait, so that a restart on the same port right after close() can bind it.
    if (acceptor.isAlive()) {
      try {
        acceptor.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    for (Socket client : open) {
      try {
        client.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
    connections.shutdownNow();
  }
}
