package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ytstream.emulator.RawHttp.Reply;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Errors after a streamed answer started, as {@code yt/yt/server/http_proxy/context.cpp} reports
 * them: status 200, the error in chunked-encoding trailers announced by a {@code Trailer} header
 * ({@code AddHeaders}, {@code Finalize}), or with {@code dump_error_into_response=true} appended to
 * the body as {@code DumpError} writes it. Read over a plain socket, since the JDK's HttpClient
 * drops trailers; expected bytes are literals.
 */
class StreamingErrorConformanceTest {

  @RegisterExtension
  final YtEmulatorExtension yt = new YtEmulatorExtension(EmulatorOptions.defaults());

  /** A raw answer: status, headers (lower-case names), de-chunked body, trailers. */
  record Answer(
      int status, Map<String, String> headers, byte[] body, Map<String, String> trailers) {
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  private Answer get(String pathAndQuery, String... headers) throws IOException {
    URI base = URI.create(yt.emulator().url());
    try (Socket socket = new Socket(base.getHost(), base.getPort())) {
      StringBuilder request = new StringBuilder("GET " + pathAndQuery + " HTTP/1.1\r\n");
      request.append("Host: ").append(base.getAuthority()).append("\r\nConnection: close\r\n");
      for (int i = 0; i + 1 < headers.length; i += 2) {
        request.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
      }
      request.append("\r\n");
      OutputStream out = socket.getOutputStream();
      out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      return parse(socket.getInputStream());
    }
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c == -1) {
        throw new IOException("cut line: " + bytes);
      }
      bytes.write(c);
    }
    String text = bytes.toString(StandardCharsets.ISO_8859_1);
    return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
  }

  private static Map<String, String> fields(InputStream in) throws IOException {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String l = line(in); !l.isEmpty(); l = line(in)) {
      int colon = l.indexOf(':');
      fields.put(l.substring(0, colon).toLowerCase(Locale.ROOT), l.substring(colon + 1).strip());
    }
    return fields;
  }

  private static Answer parse(InputStream in) throws IOException {
    int status = Integer.parseInt(line(in).split(" ")[1]);
    Map<String, String> headers = fields(in);
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    Map<String, String> trailers = Map.of();
    if ("chunked".equals(headers.get("transfer-encoding"))) {
      for (int size = Integer.parseInt(line(in), 16);
          size > 0;
          size = Integer.parseInt(line(in), 16)) {
        body.write(in.readNBytes(size));
        assertEquals("", line(in));
      }
      trailers = fields(in);
    } else {
      body.write(in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0"))));
    }
    return new Answer(status, headers, body.toByteArray(), trailers);
  }

  private static final String PULL =
      "/api/v4/pull_queue_consumer?consumer_path=//home/c&queue_path=//home/q&partition_index=0"
          + "&offset=0";

  private void queueWithRows() {
    RawHttp http = new RawHttp(null);
    String base = yt.emulator().url();
    http.command(
        "POST",
        base,
        "create",
        "{\"path\":\"//home/q\",\"type\":\"table\",\"recursive\":true,\"attributes\":"
            + "{\"dynamic\":true,\"schema\":[{\"name\":\"value\",\"type\":\"string\"}]}}");
    http.command("POST", base, "mount_table", "{\"path\":\"//home/q\"}");
    http.command("POST", base, "create", "{\"path\":\"//home/c\",\"type\":\"queue_consumer\"}");
    http.command(
        "POST",
        base,
        "register_queue_consumer",
        "{\"queue_path\":\"//home/q\",\"consumer_path\":\"//home/c\",\"vital\":false}");
    Reply insert =
        http.put(
            base,
            "insert_rows",
            "{\"path\":\"//home/q\"}",
            "{\"value\":\"first\"}\n{\"value\":\"second\"}\n{\"value\":\"third\"}\n");
    assertEquals(200, insert.status(), insert.text());
  }

  private static final String ANNOUNCED = "X-YT-Error, X-YT-Response-Code, X-YT-Response-Message";

  @Test
  void aStreamedAnswerIsChunkedAndAnnouncesTheErrorTrailers() throws IOException {
    queueWithRows();

    Answer answer = get(PULL);

    assertEquals(200, answer.status());
    assertEquals(ANNOUNCED, answer.headers().get("trailer"));
    assertEquals("chunked", answer.headers().get("transfer-encoding"));
    assertTrue(answer.trailers().isEmpty(), "no error, no trailers: " + answer.trailers());
    assertTrue(answer.text().endsWith("\"value\"=\"third\";};\n"), answer.text());
  }

  @Test
  void anErrorAfterTheBodyStartedIsInTheTrailers() throws IOException {
    queueWithRows();
    byte[] full = get(PULL).body();
    yt.emulator().failNextAnswerHalfway("pull_queue_consumer", 1712, "Tablet is gone");

    Answer cut = get(PULL);

    assertEquals(200, cut.status());
    assertArrayEquals(Arrays.copyOf(full, full.length / 2), cut.body());
    assertEquals("1712", cut.trailers().get("x-yt-response-code"));
    assertEquals("Tablet is gone", cut.trailers().get("x-yt-response-message"));
    JsonNode error = RawHttp.parseJson(cut.trailers().get("x-yt-error"));
    assertEquals(1712, error.path("code").asInt());
    assertEquals("Tablet is gone", error.path("message").asText());

    assertArrayEquals(full, get(PULL).body(), "armed once, fails once");
  }

  @Test
  void dumpErrorIntoResponseAppendsTheErrorBetweenDelimiters() throws IOException {
    queueWithRows();
    byte[] full = get(PULL).body();
    yt.emulator().failNextAnswerHalfway("pull_queue_consumer", 1701, "boom");

    Answer cut = get(PULL + "&dump_error_into_response=true");

    String delimiter = "\n" + "=".repeat(80) + "\n";
    String expected =
        new String(Arrays.copyOf(full, full.length / 2), StandardCharsets.UTF_8)
            + "\n"
            + delimiter
            + "{\n"
            + "    \"code\": 1701,\n"
            + "    \"message\": \"boom\",\n"
            + "    \"attributes\": {\n"
            + "        \"host\": \"emulator\"\n"
            + "    },\n"
            + "    \"inner_errors\": [\n"
            + "\n"
            + "    ]\n"
            + "}\n"
            + delimiter;
    assertEquals(200, cut.status());
    assertEquals(expected, cut.text());
    assertTrue(cut.trailers().isEmpty(), "the dump replaces the trailers: " + cut.trailers());
  }

  @Test
  void withDumpAnErrorBeforeAnyRowIsStill200WithTheDump() throws IOException {
    Answer answer =
        get(
            "/api/v4/pull_queue_consumer?consumer_path=//c&queue_path=//missing&partition_index=0"
                + "&offset=0&dump_error_into_response=true");

    assertEquals(200, answer.status());
    assertTrue(
        answer.text().startsWith("\n\n" + "=".repeat(80) + "\n{\n    \"code\": 500,"),
        answer.text());
    assertTrue(answer.text().endsWith("}\n\n" + "=".repeat(80) + "\n"), answer.text());
  }

  @Test
  void withoutDumpAnErrorBeforeAnyRowIsA400WithHeaders() throws IOException {
    Answer answer =
        get("/api/v4/pull_queue_consumer?consumer_path=//c&queue_path=//missing&partition_index=0");

    assertEquals(400, answer.status());
    assertEquals("500", answer.headers().get("x-yt-response-code"));
    assertNull(answer.headers().get("trailer"));
  }

  @Test
  void omitTrailersDropsTheAnnouncementAndTheTrailers() throws IOException {
    queueWithRows();
    yt.emulator().failNextAnswerHalfway("pull_queue_consumer", 1712, "gone");

    Answer cut = get(PULL, "X-YT-Omit-Trailers", "true");

    assertEquals(200, cut.status());
    assertNull(cut.headers().get("trailer"));
    assertTrue(cut.trailers().isEmpty());
    assertFalse(cut.text().contains("third"), "cut half-way: " + cut.text());
  }
}
