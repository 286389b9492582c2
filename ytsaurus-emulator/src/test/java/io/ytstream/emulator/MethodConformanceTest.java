package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.ytstream.emulator.RawHttp.Reply;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The proxy makes no HTTP method check ({@code yt/yt/server/http_proxy/context.cpp}, {@code
 * TryPrepare}); a POST body holds parameters in the input format, YSON unless {@code
 * X-YT-Input-Format} or {@code Content-Type} says otherwise ({@code CaptureParameters}, {@code
 * formats.cpp}); command names are lower-cased and must be letters and {@code _} ({@code
 * TryParseCommandName}).
 */
class MethodConformanceTest {

  @RegisterExtension
  final YtEmulatorExtension yt = new YtEmulatorExtension(EmulatorOptions.defaults());

  private final RawHttp http = new RawHttp(null);

  private boolean exists(String path) {
    return http.command("GET", yt.emulator().url(), "exists", "{\"path\":\"" + path + "\"}")
        .json()
        .path("value")
        .asBoolean();
  }

  @Test
  void anyMethodRunsTheCommand() {
    assertEquals(
        200,
        http.command(
                "GET", yt.emulator().url(), "create", "{\"path\":\"//a\",\"type\":\"map_node\"}")
            .status());
    assertEquals(
        200,
        http.command("PUT", yt.emulator().url(), "get", "{\"path\":\"//sys/@cluster_name\"}")
            .status());
    assertEquals(true, exists("//a"));
  }

  @Test
  void aPostBodyIsParametersInTheInputFormat() {
    String url = yt.emulator().url() + "/api/v4/create";
    byte[] json = "{\"path\":\"//j\",\"type\":\"map_node\"}".getBytes(StandardCharsets.UTF_8);

    assertEquals(200, http.raw("POST", url, json, "Content-Type", "application/json").status());
    assertEquals(
        200,
        http.raw("POST", url, "{path=\"//y\";type=map_node}".getBytes(StandardCharsets.UTF_8))
            .status());
    Reply jsonAsYson = http.raw("POST", url.replace("//j", "//n"), json);

    assertEquals(
        400, jsonAsYson.status(), "without a format a POST body is YSON: " + jsonAsYson.text());
    assertEquals(true, exists("//j"));
    assertEquals(true, exists("//y"));
  }

  @Test
  void commandNamesAreLowerCasedAndMustBeLettersOrUnderscores() {
    Reply upper =
        http.raw("GET", yt.emulator().url() + "/api/v4/GET?path=//sys/@cluster_name", null);
    Reply malformed = http.raw("GET", yt.emulator().url() + "/api/v4/get2", null);
    Reply unknown = http.command("GET", yt.emulator().url(), "no_such_command", "{}");

    assertEquals(200, upper.status(), upper.text());
    assertEquals(404, malformed.status());
    assertEquals("Malformed command name", malformed.json().path("message").asText());
    assertEquals(404, unknown.status());
    assertEquals(
        "Command \"no_such_command\" is not registered", unknown.json().path("message").asText());
    assertNotNull(unknown.header("X-YT-Error"));
  }
}
