package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.emulator.RawHttp.Reply;
import io.ytstream.types.yson.Yson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How the official Python client sends formats and bodies, and what it expects back, each as the
 * proxy does it: the {@code input_format}/{@code output_format} parameters win over the format
 * headers ({@code yt/yt/server/http_proxy/context.cpp}, {@code CaptureParameters}); {@code
 * return_only_value} answers the bare value ({@code yt/yt/client/driver/cypress_commands.cpp});
 * {@code X-YT-Response-Parameters} is written in the request's header format ({@code context.cpp},
 * {@code OnOutputParameters}); compressed request bodies are decompressed ({@code
 * yt/yt/core/http/compression.cpp}); {@code /api} lists the versions served.
 */
class ClientFormatsConformanceTest {

  @RegisterExtension static final YtEmulatorExtension YT = new YtEmulatorExtension();

  private final RawHttp http = new RawHttp(null);
  private String queue;

  @BeforeEach
  void queue() {
    queue = "//formats/q" + System.nanoTime();
    ok(
        http.command(
            "POST",
            base(),
            "create",
            "{\"path\":\""
                + queue
                + "\",\"type\":\"table\",\"recursive\":true,\"attributes\":{\"dynamic\":true,"
                + "\"schema\":[{\"name\":\"v\",\"type\":\"string\"}]}}"));
    ok(http.command("POST", base(), "mount_table", "{\"path\":\"" + queue + "\"}"));
    ok(http.put(base(), "insert_rows", "{\"path\":\"" + queue + "\"}", "{\"v\":\"a\"}\n"));
  }

  private static String base() {
    return YT.emulator().url();
  }

  private static Reply ok(Reply reply) {
    assertEquals(200, reply.status(), reply.text());
    return reply;
  }

  /** A request as the official client sends it: YSON header format, parameters in YSON. */
  private Reply yson(String method, String command, String parameters, byte[] body, String... h) {
    String[] headers = new String[h.length + 4];
    headers[0] = "X-YT-Header-Format";
    headers[1] = "<format=text>yson";
    headers[2] = "X-YT-Parameters";
    headers[3] = parameters;
    System.arraycopy(h, 0, headers, 4, h.length);
    return http.raw(method, base() + "/api/v4/" + command, body, headers);
  }

  @Test
  void theOutputFormatParameterWinsOverTheHeader() {
    // The header asks for JSON (RawHttp.command sends X-YT-Output-Format: json); the parameter
    // for binary YSON.
    Reply reply =
        ok(
            http.command(
                "GET",
                base(),
                "get",
                "{\"path\":\""
                    + queue
                    + "/@tablet_state\",\"output_format\":"
                    + "{\"$value\":\"yson\",\"$attributes\":{\"format\":\"binary\"}}}"));
    assertEquals("application/x-yt-yson-binary", reply.header("Content-Type"));
    assertEquals(Map.of("value", "mounted"), decode(Yson.parse(reply.response().body())));
  }

  @Test
  void ysonParametersCarryTheOutputFormatOfAPull() {
    Reply reply =
        ok(
            yson(
                "GET",
                "pull_queue",
                "{queue_path=\"" + queue + "\";offset=0;partition_index=0;output_format=json}",
                null));
    assertEquals("application/json", reply.header("Content-Type"));
    assertEquals("a", reply.rows().get(0).path("v").asText());
  }

  @Test
  void theInputFormatParameterReadsTheBody() {
    ok(
        yson(
            "PUT",
            "insert_rows",
            "{path=\"" + queue + "\";input_format=<format=text>yson}",
            "{v=b};".getBytes(StandardCharsets.UTF_8),
            // The header says JSON; the parameter wins.
            "X-YT-Input-Format",
            "json"));
    assertEquals(2, pulledValues().size());
  }

  @Test
  void returnOnlyValueAnswersTheBareValue() {
    Reply get =
        ok(
            http.command(
                "GET",
                base(),
                "get",
                "{\"path\":\"" + queue + "/@tablet_state\",\"return_only_value\":true}"));
    assertEquals("\"mounted\"", get.text());
    Reply list =
        ok(
            http.command(
                "GET", base(), "list", "{\"path\":\"//formats\",\"return_only_value\":true}"));
    assertTrue(list.json().isArray(), list.text());
  }

  @Test
  void responseParametersComeInTheHeaderFormat() {
    Reply reply =
        ok(
            yson(
                "GET",
                "pull_queue",
                "{queue_path=\"" + queue + "\";offset=0;partition_index=0}",
                null));
    Object parameters =
        Yson.parse(reply.header("X-YT-Response-Parameters").getBytes(StandardCharsets.ISO_8859_1));
    assertEquals(Map.of("start_offset", 0L), decode(parameters));
  }

  @Test
  void compressedBodiesAreReadWhetherZlibOrGzip() throws IOException {
    byte[] rows = "{\"v\":\"z\"}\n{\"v\":\"g\"}\n".getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream zlib = new ByteArrayOutputStream();
    try (DeflaterOutputStream out = new DeflaterOutputStream(zlib)) {
      out.write(rows, 0, 10);
    }
    ByteArrayOutputStream gzip = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gzip)) {
      out.write(rows, 10, rows.length - 10);
    }
    for (byte[] body : List.of(zlib.toByteArray(), gzip.toByteArray())) {
      ok(
          http.raw(
              "PUT",
              base() + "/api/v4/insert_rows",
              body,
              "X-YT-Parameters",
              "{\"path\":\"" + queue + "\"}",
              "X-YT-Input-Format",
              "\"json\"",
              "Content-Encoding",
              "gzip"));
    }
    assertEquals(List.of("a", "z", "g"), pulledValues());
  }

  @Test
  void anUnknownContentEncodingIsRefusedWith415() {
    Reply reply =
        http.raw(
            "PUT",
            base() + "/api/v4/insert_rows",
            "{\"v\":\"x\"}\n".getBytes(StandardCharsets.UTF_8),
            "X-YT-Parameters",
            "{\"path\":\"" + queue + "\"}",
            "Content-Encoding",
            "zstd");
    assertEquals(415, reply.status(), reply.text());
    assertEquals(List.of("a"), pulledValues());
  }

  @Test
  void apiListsOnlyTheVersionItServes() {
    Reply reply = ok(http.raw("GET", base() + "/api", null));
    assertEquals("[\"v4\"]", reply.text());
  }

  @Test
  void theCommandLineStartsWhatALocalClusterRuns() {
    EmulatorOptions options = YtEmulatorMain.parse(new String[0]);
    assertEquals(1, options.proxyCount());
    assertTrue(options.showPorts());
    assertArrayEquals(
        new Object[] {2, false},
        new Object[] {
          YtEmulatorMain.parse(new String[] {"--proxies", "2", "--show-ports", "false"})
              .proxyCount(),
          YtEmulatorMain.parse(new String[] {"--show-ports", "false"}).showPorts()
        });
  }

  private List<String> pulledValues() {
    Reply reply =
        ok(
            http.command(
                "GET",
                base(),
                "pull_queue",
                "{\"queue_path\":\"" + queue + "\",\"offset\":0,\"partition_index\":0}"));
    return reply.rows().stream().map(r -> r.path("v").asText()).toList();
  }

  /** YSON strings (bytes) as Java strings, maps and lists walked, for comparing. */
  private static Object decode(Object yson) {
    if (yson instanceof byte[] bytes) {
      return new String(bytes, StandardCharsets.UTF_8);
    }
    if (yson instanceof Map<?, ?> map) {
      Map<String, Object> out = new java.util.TreeMap<>();
      map.forEach((k, v) -> out.put(String.valueOf(k), decode(v)));
      return out;
    }
    return yson;
  }
}
