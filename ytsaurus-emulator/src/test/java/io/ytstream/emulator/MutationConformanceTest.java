package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.ytstream.emulator.RawHttp.Reply;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code mutation_id} parsed as the server's GUID ({@code library/cpp/yt/misc/guid.cpp}) and
 * repeats answered by the response keeper ({@code yt/yt/core/rpc/response_keeper.cpp}), over raw
 * HTTP.
 */
class MutationConformanceTest {

  @RegisterExtension
  final YtEmulatorExtension yt =
      new YtEmulatorExtension(EmulatorOptions.defaults().withProxyCount(2));

  private final RawHttp http = new RawHttp(null);

  private Reply create(String path, String mutationId, boolean retry, int proxy) {
    return http.command(
        "POST",
        yt.emulator().proxyUrls().get(proxy),
        "create",
        "{\"path\":\""
            + path
            + "\",\"type\":\"map_node\",\"mutation_id\":\""
            + mutationId
            + "\",\"retry\":"
            + retry
            + "}");
  }

  @Test
  void aJavaUuidIsNotAGuid() {
    String uuid = UUID.randomUUID().toString();

    Reply reply = create("//a", uuid, false, 0);

    assertEquals(400, reply.status());
    assertEquals("Error parsing GUID \"" + uuid + "\"", reply.json().path("message").asText());
    assertEquals(
        "false",
        http.command("GET", yt.emulator().url(), "exists", "{\"path\":\"//a\"}")
            .json()
            .path("value")
            .asText());
  }

  @Test
  void aGuidHasExactlyFourHexPartsOfAtMost32Bits() {
    for (String bad : new String[] {"1-2-3", "1-2-3-4-5", "1-2--4", "1-2-3-", "100000000-2-3-4"}) {
      Reply reply = create("//bad", bad, false, 0);
      assertEquals(400, reply.status(), bad);
      assertEquals("Error parsing GUID \"" + bad + "\"", reply.json().path("message").asText());
    }
    assertEquals(200, create("//good", "0000000A-b-C-ffffffff", false, 0).status());
  }

  @Test
  void aRepeatWithRetryGetsTheKeptAnswerAndWithoutRetryIsRefused() {
    Reply first = create("//m", "1a2b-3c4d-5e6f-7a8b", false, 0);
    assertEquals(200, first.status(), first.text());

    Reply notMarked = create("//m", "1a2b-3c4d-5e6f-7a8b", false, 1);
    assertEquals(400, notMarked.status());
    assertEquals(
        "Duplicate request is not marked as \"retry\"", notMarked.json().path("message").asText());

    // The kept answer: not a second creation (which would be 501, the node exists), the same id.
    // Another spelling of the same four numbers is the same mutation.
    Reply retried = create("//m", "1A2B-3C4D-5E6F-7A8B", true, 1);
    assertEquals(200, retried.status(), retried.text());
    assertEquals(first.json().path("node_id"), retried.json().path("node_id"));

    Reply fresh = create("//m", "1-1-1-1", true, 0);
    assertEquals(501, fresh.errorCode(), "an unknown id with retry=true runs: " + fresh.text());
  }

  @Test
  void aKeptErrorIsAnsweredAgain() {
    String remove = "{\"path\":\"//missing\",\"mutation_id\":\"5-6-7-8\",\"retry\":";
    Reply first = http.command("POST", yt.emulator().url(), "remove", remove + "false}");
    assertEquals(500, first.errorCode());

    create("//missing", "9-9-9-9", false, 0);
    Reply retried = http.command("POST", yt.emulator().url(), "remove", remove + "true}");

    assertEquals(500, retried.errorCode(), "kept, not run again: " + retried.text());
  }

  @Test
  void commandsWithoutMutatingOptionsIgnoreTheParameter() {
    Reply reply =
        http.command(
            "GET",
            yt.emulator().url(),
            "exists",
            "{\"path\":\"//x\",\"mutation_id\":\"" + UUID.randomUUID() + "\"}");

    assertEquals(200, reply.status(), reply.text());
    assertFalse(reply.json().path("value").asBoolean());
  }

  @Test
  void tabletTransactionCommandsCheckTheId() {
    Reply start =
        http.command(
            "POST",
            yt.emulator().url(),
            "start_transaction",
            "{\"type\":\"tablet\",\"mutation_id\":\"" + UUID.randomUUID() + "\"}");

    assertEquals(400, start.status());
    assertEquals(
        true, start.json().path("message").asText().startsWith("Error parsing GUID"), start.text());
  }
}
