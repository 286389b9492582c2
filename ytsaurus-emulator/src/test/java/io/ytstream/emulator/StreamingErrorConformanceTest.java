package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ytstream.emulator.RawHttp.Reply;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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

  private RawSocket.Answer get(String pathAndQuery, String... headers) throws IOException {
    return RawSocket.send(yt.emulator().url(), "GET", pathAndQuery, headers);
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

    RawSocket.Answer answer = get(PULL);

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

    RawSocket.Answer cut = get(PULL);

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

    RawSocket.Answer cut = get(PULL + "&dump_error_into_response=true");

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
    RawSocket.Answer answer =
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
    RawSocket.Answer answer =
        get("/api/v4/pull_queue_consumer?consumer_path=//c&queue_path=//missing&partition_index=0");

    assertEquals(400, answer.status());
    assertEquals("500", answer.headers().get("x-yt-response-code"));
    assertNull(answer.headers().get("trailer"));
  }

  @Test
  void omitTrailersDropsTheAnnouncementAndTheTrailers() throws IOException {
    queueWithRows();
    yt.emulator().failNextAnswerHalfway("pull_queue_consumer", 1712, "gone");

    RawSocket.Answer cut = get(PULL, "X-YT-Omit-Trailers", "true");

    assertEquals(200, cut.status());
    assertNull(cut.headers().get("trailer"));
    assertTrue(cut.trailers().isEmpty());
    assertFalse(cut.text().contains("third"), "cut half-way: " + cut.text());
  }

  @Test
  void theJdkHttpClientSeesACutAnswerAs200AndDropsTheTrailers() throws IOException {
    queueWithRows();
    byte[] full = get(PULL).body();
    yt.emulator().failNextAnswerHalfway("pull_queue_consumer", 1712, "gone");

    Reply reply = new RawHttp(null).raw("GET", yt.emulator().url() + PULL, null);

    // Why clients must ask for dump_error_into_response: nothing else shows the failure.
    assertEquals(200, reply.status());
    assertArrayEquals(Arrays.copyOf(full, full.length / 2), reply.response().body());
    assertNull(reply.header("X-YT-Error"));
  }
}
