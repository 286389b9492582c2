package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code X-YT-Parameters} decoded as the server does ({@code yt/yt/server/http_proxy/formats.cpp},
 * {@code yt/yt/core/misc/utf8_decoder.cpp}): the default header format is JSON with {@code
 * encode_utf8=true}, so each code point of a string is one byte; plain UTF-8 text decodes to other
 * bytes or, above U+00FF, is refused. {@code <encode_utf8=%false>json} and YSON carry UTF-8 as it
 * is.
 */
class HeaderEncodingConformanceTest {

  @RegisterExtension
  final YtEmulatorExtension yt = new YtEmulatorExtension(EmulatorOptions.defaults());

  private RawSocket.Answer call(
      String method, String command, String headerFormat, String parameters) {
    try {
      return headerFormat == null
          ? RawSocket.send(
              yt.emulator().url(), method, "/api/v4/" + command, "X-YT-Parameters", parameters)
          : RawSocket.send(
              yt.emulator().url(),
              method,
              "/api/v4/" + command,
              "X-YT-Header-Format",
              headerFormat,
              "X-YT-Parameters",
              parameters);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private boolean exists(String headerFormat, String parameters) {
    RawSocket.Answer reply = call("GET", "exists", headerFormat, parameters);
    assertEquals(200, reply.status(), reply.text());
    return reply.json().path("value").asBoolean();
  }

  @Test
  void encodeUtf8FalseAndYsonCarryUtf8AsItIs() {
    RawSocket.Answer created =
        call(
            "POST",
            "create",
            "<encode_utf8=%false>json",
            "{\"path\":\"//é\",\"type\":\"map_node\"}");
    assertEquals(200, created.status(), created.text());

    assertEquals(true, exists("<encode_utf8=%false>json", "{\"path\":\"//é\"}"));
    assertEquals(true, exists("yson", "{path=\"//é\"}"));
  }

  @Test
  void theDefaultJsonTakesEachCodePointAsOneByte() {
    call("POST", "create", "<encode_utf8=%false>json", "{\"path\":\"//é\",\"type\":\"map_node\"}");

    // é is C3 A9 in UTF-8: sent as the code points U+00C3 U+00A9 it names //é ...
    assertEquals(true, exists(null, "{\"path\":\"//\\u00c3\\u00a9\"}"));
    assertEquals(true, exists("json", "{\"path\":\"//\\u00c3\\u00a9\"}"));
    // ... while plain UTF-8 é is the one code point U+00E9, the single byte E9: another path.
    assertEquals(false, exists(null, "{\"path\":\"//é\"}"));
  }

  @Test
  void aCodePointAbove255IsRefusedWithTheServersMessage() {
    RawSocket.Answer reply = call("GET", "exists", null, "{\"path\":\"//привет\"}");

    assertEquals(400, reply.status());
    assertEquals(
        "Unicode symbols with codes greater than 255 are not supported. Please refer to"
            + " https://wiki.yandex-team.ru/yt/userdoc/formats/#json and consider using"
            + " encode_utf8=false in format options",
        reply.json().path("message").asText());
  }
}
