package io.ytstream.ytsaurus.http;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.emulator.SelfSignedCertificate;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class Http11ClientTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final RawHttpPeer peer = new RawHttpPeer();
  private final Http11Client client = new Http11Client(Optional.empty(), Duration.ofSeconds(5));

  @AfterEach
  void close() {
    client.close();
    peer.close();
    assertEquals(List.of(), peer.failures(), "the server's side failed");
  }

  private HttpAnswer get(String path) throws IOException {
    return client.send("GET", URI.create(peer.url() + path), List.of(), null, TIMEOUT);
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  @Test
  void aChunkedAnswerIsJoinedAndTheTrailersAfterItAreKept() throws IOException {
    String big = "x".repeat(70_000); // over the read buffer: read past it
    peer.then(
        c -> {
          c.read();
          c.write(
              "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-YT-Error\r\n\r\n"
                  + "3;name=value\r\nabc\r\n"
                  + Integer.toHexString(big.length())
                  + "\r\n"
                  + big
                  + "\r\n0\r\nX-YT-Error: {\"code\":1}\r\n\r\n");
        });
    HttpAnswer answer = get("/a");
    assertEquals(200, answer.status());
    assertEquals("abc" + big, text(answer.body()));
    assertEquals(Optional.of("{\"code\":1}"), answer.trailers().firstValue("x-yt-error"));
  }

  @Test
  void aHeaderOverTheLimitIsLeftOutAndTheRestOfTheAnswerRead() throws IOException {
    // A proxy repeats a whole nested error in X-YT-Error: far over 64 KiB, longer than the buffer.
    String huge = "{\"code\":1,\"message\":\"" + "e".repeat(300_000) + "\"}";
    String medium = "m".repeat(40_000);
    peer.then(
        c -> {
          c.read();
          c.write(
              RawHttpPeer.answer(
                  400,
                  "{\"code\":1700}",
                  "X-YT-Error: " + huge,
                  "X-One: " + medium,
                  "X-Two: " + medium,
                  "X-YT-Response-Code: 1700"));
        });

    HttpAnswer answer = get("/");

    assertEquals(400, answer.status());
    assertEquals("{\"code\":1700}", text(answer.body()));
    assertEquals(List.of("X-YT-Error", "X-Two"), answer.dropped());
    assertTrue(answer.droppedField("x-yt-error"));
    assertEquals(Optional.of(medium), answer.headers().firstValue("X-One"));
    assertEquals(Optional.of("1700"), answer.headers().firstValue("X-YT-Response-Code"));
  }

  @Test
  void aFramingFieldPastTheLimitIsAnAnswerOverLimitThatKeepsTheStatus() {
    peer.then(
        c -> {
          c.read();
          // X-Big is kept (a 65,520-byte line fits the buffer and the 64 KiB), so the length
          // after it no longer fits.
          c.write(
              "HTTP/1.1 503 X\r\nX-Big: " + "b".repeat(65_513) + "\r\nContent-Length: 2\r\n\r\n{}");
        });

    AnswerOverLimit e = assertThrows(AnswerOverLimit.class, () -> get("/"));
    assertEquals(503, e.status());
    assertTrue(e.getMessage().contains("Content-Length"), e.getMessage());
  }

  @Test
  void manySmallChunksMakeOneBodyOfTheirLength() throws IOException {
    StringBuilder chunked = new StringBuilder();
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < 300; i++) {
      String part = Integer.toString(i).repeat(1 + i % 7);
      chunked.append(Integer.toHexString(part.length())).append("\r\n").append(part).append("\r\n");
      expected.append(part);
    }
    peer.then(
        c -> {
          c.read();
          c.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked + "0\r\n\r\n");
        });
    HttpAnswer answer = get("/");
    assertEquals(expected.toString(), text(answer.body()));
    assertEquals(expected.length(), answer.body().length);
  }

  @Test
  void theRequestCarriesHostHeadersAndBody() throws IOException {
    peer.then(
        c -> {
          c.read();
          c.write(RawHttpPeer.answer(200, "ok"));
        });
    byte[] body = "payload".getBytes(StandardCharsets.UTF_8);
    HttpAnswer answer =
        client.send(
            "POST",
            URI.create(peer.url() + "/api/v4/x?y=1"),
            List.of("X-YT-Parameters", "{\"a\":1}"),
            body,
            TIMEOUT);
    assertEquals("ok", text(answer.body()));
    RawHttpPeer.Request request = peer.requests().get(0);
    assertEquals("POST /api/v4/x?y=1 HTTP/1.1", request.requestLine());
    assertEquals(peer.url().substring("http://".length()), request.header("Host"));
    assertEquals("{\"a\":1}", request.header("X-YT-Parameters"));
    assertArrayEquals(body, request.body());
  }

  @Test
  void aKeptAliveConnectionCarriesTheNextRequest() throws IOException {
    peer.then(
        c -> {
          c.read();
          c.write(RawHttpPeer.answer(200, "one"));
          c.read();
          c.write(RawHttpPeer.answer(200, "two"));
          c.read();
        });
    assertEquals("one", text(get("/1").body()));
    assertEquals("two", text(get("/2").body()));
    assertEquals(1, peer.accepted());
  }

  @Test
  void aGetWhoseKeptConnectionTheServerClosedUnderItIsSentOnceMoreOnANewOne() throws IOException {
    peer.then(
            c -> {
              c.read();
              c.write(RawHttpPeer.answer(200, "one"));
              c.read(); // the next request arrives, and the server closes without an answer
              c.close();
            })
        .then(
            c -> {
              c.read();
              c.write(RawHttpPeer.answer(200, "again"));
            });
    assertEquals("one", text(get("/1").body()));
    assertEquals("again", text(get("/2").body()));
    assertEquals(3, peer.requests().size());
    assertEquals(2, peer.accepted());
  }

  @Test
  void aPostWhoseConnectionClosedBeforeAnAnswerIsNotSentAgain() throws IOException {
    peer.then(
        c -> {
          c.read();
          c.write(RawHttpPeer.answer(200, "one"));
          c.read();
          c.close();
        });
    assertEquals("one", text(get("/1").body()));
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                client.send(
                    "POST", URI.create(peer.url() + "/2"), List.of(), new byte[1], TIMEOUT));
    assertFalse(e instanceof ConnectException, "it was sent: " + e);
    assertEquals(2, peer.requests().size());
  }

  @Test
  void aKeptConnectionTheServerClosedWhileIdleIsLeftAndAPostGoesOnANewOne() throws Exception {
    AtomicBoolean closedByServer = new AtomicBoolean();
    peer.then(
            c -> {
              c.read();
              c.write(RawHttpPeer.answer(200, "one"));
              c.close(); // its keep-alive timeout
              closedByServer.set(true);
            })
        .then(
            c -> {
              c.read();
              c.write(RawHttpPeer.answer(200, "two"));
            });
    assertEquals("one", text(get("/1").body()));
    while (!closedByServer.get()) {
      Thread.sleep(5);
    }
    Thread.sleep(50);
    HttpAnswer answer =
        client.send("POST", URI.create(peer.url() + "/2"), List.of(), new byte[1], TIMEOUT);
    assertEquals("two", text(answer.body()));
    assertEquals(2, peer.requests().size());
  }

  @Test
  void anAnswerWithoutALengthEndsWithItsConnectionWhichIsNotKept() throws IOException {
    peer.then(
            c -> {
              c.read();
              c.write("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nto the end");
              c.close();
            })
        .then(
            c -> {
              c.read();
              c.write(RawHttpPeer.answer(200, "next"));
            });
    assertEquals("to the end", text(get("/1").body()));
    assertEquals("next", text(get("/2").body()));
    assertEquals(2, peer.accepted());
  }

  @Test
  void interimAnswersAreSkipped() throws IOException {
    peer.then(
        c -> {
          c.read();
          c.write("HTTP/1.1 100 Continue\r\n\r\n" + RawHttpPeer.answer(200, "final"));
        });
    HttpAnswer answer = get("/");
    assertEquals(200, answer.status());
    assertEquals("final", text(answer.body()));
  }

  @Test
  void a307IsFollowedWithTheSameMethodAndBody() throws IOException {
    peer.then(
        c -> {
          c.read();
          c.write(RawHttpPeer.answer(307, "", "Location: /elsewhere"));
          c.read();
          c.write(RawHttpPeer.answer(200, "moved"));
        });
    HttpAnswer answer =
        client.send("PUT", URI.create(peer.url() + "/here"), List.of(), new byte[] {7}, TIMEOUT);
    assertEquals("moved", text(answer.body()));
    RawHttpPeer.Request second = peer.requests().get(1);
    assertEquals("PUT /elsewhere HTTP/1.1", second.requestLine());
    assertArrayEquals(new byte[] {7}, second.body());
  }

  @Test
  void a303IsFollowedByAGetWithoutTheBody() throws IOException {
    peer.then(
        c -> {
          c.read();
          c.write(RawHttpPeer.answer(303, "", "Location: " + peer.url() + "/result"));
          c.read();
          c.write(RawHttpPeer.answer(200, "done"));
        });
    client.send("POST", URI.create(peer.url() + "/start"), List.of(), new byte[] {1}, TIMEOUT);
    RawHttpPeer.Request second = peer.requests().get(1);
    assertEquals("GET /result HTTP/1.1", second.requestLine());
    assertNull(second.header("Content-Length"));
  }

  @Test
  void aServerThatDoesNotAnswerEndsTheRequestAtItsTimeout() {
    peer.then(
        c -> {
          c.read();
          Thread.sleep(5_000);
        });
    long start = System.nanoTime();
    assertThrows(
        SocketTimeoutException.class,
        () -> client.send("GET", URI.create(peer.url()), List.of(), null, Duration.ofMillis(300)));
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(millis >= 250 && millis < 3_000, "ended after " + millis + " ms");
  }

  @Test
  void anInterruptEndsAWaitForTheAnswerAtOnce() throws Exception {
    peer.then(
        c -> {
          c.read();
          Thread.sleep(5_000);
        });
    AtomicReference<Exception> failure = new AtomicReference<>();
    AtomicBoolean flag = new AtomicBoolean();
    Thread caller =
        new Thread(
            () -> {
              try {
                get("/");
              } catch (Exception e) {
                failure.set(e);
              }
              flag.set(Thread.currentThread().isInterrupted());
            });
    caller.start();
    while (peer.requests().isEmpty()) {
      Thread.sleep(5);
    }
    Thread.sleep(50);
    long interrupted = System.nanoTime();
    caller.interrupt();
    caller.join(5_000);
    long millis = (System.nanoTime() - interrupted) / 1_000_000;
    assertInstanceOf(IOException.class, failure.get());
    assertTrue(flag.get(), "the interrupt flag stays set");
    assertTrue(millis < 1_000, "ended " + millis + " ms after the interrupt");
  }

  @Test
  void aRefusedConnectionIsAConnectFailure() throws IOException {
    int port;
    try (ServerSocket closed = new ServerSocket(0)) {
      port = closed.getLocalPort();
    }
    ConnectException e =
        assertThrows(
            ConnectException.class,
            () ->
                client.send(
                    "POST", URI.create("http://127.0.0.1:" + port), List.of(), null, TIMEOUT));
    assertTrue(e.getMessage().contains("127.0.0.1:" + port), e.getMessage());
  }

  @Test
  void anHttpsProxyWhoseCertificateDoesNotNameItsAddressFailsTheHandshake() throws Exception {
    // The certificate is trusted and names localhost and 127.0.0.1 to 127.0.0.32, not 127.0.0.100.
    SelfSignedCertificate certificate = SelfSignedCertificate.createTemporary();
    Http11Client trusting = new Http11Client(Optional.of(trusting(certificate)), TIMEOUT);
    try {
      assertEquals("named", text(httpsAnswer(trusting, certificate, "127.0.0.1", OK).body()));
      ConnectException e =
          assertThrows(
              ConnectException.class, () -> httpsAnswer(trusting, certificate, "127.0.0.100", OK));
      assertInstanceOf(SSLHandshakeException.class, e.getCause(), e.toString());
    } finally {
      trusting.close();
    }
  }

  @Test
  void aRedirectFromHttpsToHttpIsNotFollowed() throws Exception {
    SelfSignedCertificate certificate = SelfSignedCertificate.createTemporary();
    Http11Client trusting = new Http11Client(Optional.of(trusting(certificate)), TIMEOUT);
    try {
      String toPlain = RawHttpPeer.answer(307, "", "Location: " + peer.url() + "/plain");
      HttpAnswer answer = httpsAnswer(trusting, certificate, "127.0.0.1", toPlain);
      assertEquals(307, answer.status());
      assertEquals(0, peer.accepted(), "nothing was sent in the clear");
    } finally {
      trusting.close();
    }
  }

  private static final String OK = RawHttpPeer.answer(200, "named");

  /**
   * A GET to a one-request TLS server on {@code address} serving {@code certificate} that answers
   * with {@code served}.
   */
  private static HttpAnswer httpsAnswer(
      Http11Client client, SelfSignedCertificate certificate, String address, String served)
      throws Exception {
    KeyStore keys = KeyStore.getInstance("PKCS12");
    char[] password = certificate.serverKeyStore().password().toCharArray();
    try (InputStream in = Files.newInputStream(certificate.serverKeyStore().path())) {
      keys.load(in, password);
    }
    KeyManagerFactory keyManagers =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keyManagers.init(keys, password);
    SSLContext serverTls = SSLContext.getInstance("TLS");
    serverTls.init(keyManagers.getKeyManagers(), null, null);
    try (ServerSocket server =
        serverTls
            .getServerSocketFactory()
            .createServerSocket(0, 1, InetAddress.getByName(address))) {
      Thread serving =
          new Thread(
              () -> {
                try (Socket socket = server.accept()) {
                  socket.getInputStream().read(new byte[4096]);
                  socket.getOutputStream().write(served.getBytes(UTF_8));
                } catch (IOException e) {
                  // The client refused the handshake.
                }
              });
      serving.setDaemon(true);
      serving.start();
      return client.send(
          "GET",
          URI.create("https://" + address + ":" + server.getLocalPort() + "/"),
          List.of(),
          null,
          TIMEOUT);
    }
  }

  private static SSLContext trusting(SelfSignedCertificate certificate) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(certificate.trustStore())) {
      trust.load(in, certificate.password().toCharArray());
    }
    TrustManagerFactory trustManagers =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trustManagers.init(trust);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, trustManagers.getTrustManagers(), null);
    return tls;
  }

  @Test
  void aHeaderValueWithALineBreakIsRefusedWithoutShowingIt() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                client.send(
                    "GET",
                    URI.create(peer.url()),
                    List.of("Authorization", "OAuth secret\r\nX-Injected: 1"),
                    null,
                    TIMEOUT));
    assertTrue(e.getMessage().contains("Authorization"), e.getMessage());
    assertFalse(e.getMessage().contains("secret"), e.getMessage());
    assertEquals(0, peer.accepted());
  }
}
