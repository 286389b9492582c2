package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.emulator.RawHttp.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Cypress commands as the official client relies on them: node ids are GUIDs ({@code
 * library/cpp/yt/misc/guid.cpp}) with the object type in the third part; {@code remove} is
 * recursive unless told otherwise ({@code yt/yt/client/api/cypress_client.h}); {@code create} of an
 * object without a path answers {@code object_id} ({@code cypress_commands.cpp}, {@code
 * TCreateCommand}); {@code ignore_existing} with {@code force} is refused ({@code
 * yt/yt/server/master/cypress_server/node_proxy_detail.cpp}); {@code //sys} exists; a structured
 * command's error with {@code dump_error_into_response} goes into a 200 answer's body ({@code
 * yt/yt/server/http_proxy/context.cpp}, {@code Finalize}); {@code ping_transaction} without an id
 * succeeds ({@code transaction_commands.cpp}).
 */
class CypressConformanceTest {

  @RegisterExtension static final YtEmulatorExtension YT = new YtEmulatorExtension();

  private final RawHttp http = new RawHttp(null);

  private static Reply post(RawHttp http, String command, String parameters) {
    return http.command("POST", YT.emulator().url(), command, parameters);
  }

  private Reply post(String command, String parameters) {
    return post(http, command, parameters);
  }

  private Reply get(String command, String parameters) {
    return http.command("GET", YT.emulator().url(), command, parameters);
  }

  private static Reply ok(Reply reply) {
    assertEquals(200, reply.status(), reply.text());
    return reply;
  }

  @Test
  void nodeIdsAreGuidsThatStayWithTheNode() {
    String id =
        ok(post("create", "{\"path\":\"//ids/a\",\"type\":\"map_node\",\"recursive\":true}"))
            .json()
            .path("node_id")
            .asText();
    String[] parts = id.split("-");
    assertEquals(4, parts.length, id);
    for (String part : parts) {
      assertTrue(part.matches("[0-9a-f]{1,8}"), id);
    }
    assertEquals(0x12f, Integer.parseInt(parts[2], 16) & 0xffff, "map_node is object type 303");
    assertEquals(id, ok(get("get", "{\"path\":\"//ids/a/@id\"}")).json().path("value").asText());
    assertEquals(
        "map_node",
        ok(get("get", "{\"path\":\"#" + id + "/@type\"}")).json().path("value").asText());
  }

  @Test
  void removeIsRecursiveByDefault() {
    ok(post("create", "{\"path\":\"//rm/a/b\",\"type\":\"map_node\",\"recursive\":true}"));
    Reply refused = post("remove", "{\"path\":\"//rm/a\",\"recursive\":false}");
    assertEquals(400, refused.status(), refused.text());
    ok(post("remove", "{\"path\":\"//rm/a\"}"));
    assertFalse(ok(get("exists", "{\"path\":\"//rm/a\"}")).json().path("value").asBoolean());
  }

  @Test
  void setKeepsUserAttributesAndRefusesSystemOnes() {
    ok(post("create", "{\"path\":\"//attrs/n\",\"type\":\"map_node\",\"recursive\":true}"));
    ok(put("set", "{\"path\":\"//attrs/n/@owner_team\"}", "\"streaming\""));
    assertEquals(
        "streaming",
        ok(get("get", "{\"path\":\"//attrs/n/@owner_team\"}")).json().path("value").asText());
    Reply acl = put("set", "{\"path\":\"//attrs/n/@acl\"}", "[]");
    assertEquals(400, acl.status(), acl.text());
    assertTrue(acl.text().contains("create"), acl.text());
    assertEquals(400, put("set", "{\"path\":\"//attrs/n/@type\"}", "\"file\"").status());
    assertEquals(
        "map_node", ok(get("get", "{\"path\":\"//attrs/n/@type\"}")).json().path("value").asText());
  }

  private Reply put(String command, String parameters, String body) {
    return http.send(
        "PUT",
        YT.emulator().url() + "/api/v4/" + command,
        parameters,
        null,
        body.getBytes(java.nio.charset.StandardCharsets.UTF_8),
        "\"json\"");
  }

  @Test
  void ignoreExistingWithForceIsRefused() {
    Reply reply =
        post(
            "create",
            "{\"path\":\"//both\",\"type\":\"map_node\",\"ignore_existing\":true,\"force\":true}");
    assertEquals(400, reply.status(), reply.text());
    assertTrue(reply.text().contains("simultaneously"), reply.text());
  }

  @Test
  void aTabletCellIsAnObjectWithoutAPathAndHealthy() {
    assertTrue(ok(get("exists", "{\"path\":\"//sys\"}")).json().path("value").asBoolean());
    String id =
        ok(post("create", "{\"type\":\"tablet_cell\",\"attributes\":{\"size\":1}}"))
            .json()
            .path("object_id")
            .asText();
    assertEquals(4, id.split("-").length, id);
    assertEquals(
        "good",
        ok(get("get", "{\"path\":\"//sys/tablet_cells/" + id + "/@health\"}"))
            .json()
            .path("value")
            .asText());
  }

  @Test
  void aStructuredCommandDumpsItsErrorIntoA200Answer() {
    Reply reply = get("get", "{\"path\":\"//nowhere/at/all\",\"dump_error_into_response\":true}");
    assertEquals(200, reply.status(), reply.text());
    assertTrue(reply.header("X-YT-Error") == null, "no error header");
    assertTrue(reply.text().contains("//nowhere/at/all"), reply.text());
  }

  @Test
  void pingingWithoutATransactionIdDoesNothing() {
    ok(post("ping_transaction", "{}"));
    assertEquals(11000, post("ping_transaction", "{\"transaction_id\":\"1-2-3-4\"}").errorCode());
  }
}
