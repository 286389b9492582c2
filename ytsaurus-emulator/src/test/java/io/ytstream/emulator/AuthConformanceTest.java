package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.ytstream.emulator.RawHttp.Reply;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Authentication as {@code yt/yt/server/http_proxy/http_authenticator.cpp} answers it: HTTP 401,
 * code 111 (InvalidCredentials, {@code yt/yt/core/rpc/public.h}) with the server's messages, the
 * error in the body and in {@code X-YT-Error}/{@code X-YT-Response-Code}.
 */
class AuthConformanceTest {

  static final String TOKEN = "auth-conformance-token";

  @RegisterExtension
  final YtEmulatorExtension yt =
      new YtEmulatorExtension(EmulatorOptions.defaults().withToken(TOKEN));

  private Reply get(String... headers) {
    return new RawHttp(null)
        .raw("GET", yt.emulator().url() + "/api/v4/get?path=//sys/@cluster_name", null, headers);
  }

  private static void assert401(Reply reply, String message) {
    assertEquals(401, reply.status(), reply.text());
    assertEquals(111, reply.errorCode(), reply.text());
    assertEquals("111", reply.header("X-YT-Response-Code"));
    assertEquals(message, reply.json().path("message").asText());
    assertEquals(message, RawHttp.parseJson(reply.header("X-YT-Error")).path("message").asText());
  }

  @Test
  void noCredentials() {
    assert401(get(), "Client is missing credentials");
  }

  @Test
  void anAuthorizationHeaderWithoutTheOAuthPrefixIsMalformed() {
    assert401(get("Authorization", "Bearer " + TOKEN), "Malformed Authorization header");
    assert401(get("Authorization", "oauth " + TOKEN), "Malformed Authorization header");
  }

  @Test
  void aWrongTokenIsMissingInCypressAndOnlyItsHashIsShown() throws Exception {
    String wrong = "not-the-token";

    Reply reply = get("Authorization", "OAuth " + wrong);

    assert401(reply, "Token is missing in Cypress");
    String hash =
        HexFormat.of()
            .formatHex(
                MessageDigest.getInstance("SHA-256")
                    .digest(wrong.getBytes(StandardCharsets.UTF_8)));
    assertEquals(hash, reply.json().path("attributes").path("token_hash").asText());
    assertFalse(reply.text().contains(wrong), reply.text());
    assertFalse(reply.text().contains(TOKEN), reply.text());
  }

  @Test
  void theRightTokenPasses() {
    assertEquals(200, get("Authorization", "OAuth " + TOKEN).status());
  }
}
