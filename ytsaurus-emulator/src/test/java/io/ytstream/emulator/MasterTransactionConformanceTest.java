package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.emulator.RawHttp.Reply;
import io.ytstream.inmemory.ManualClock;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Master transactions ({@code yt/yt/client/driver/transaction_commands.cpp}): {@code
 * start_transaction} without a type starts one (object type 1, nested ones 4); Cypress changes
 * under it are seen by it alone until the outermost commit; an abort drops them; a nested commit
 * hands them to the parent; an expired one is gone (11000). Files are written the official client's
 * way: a master transaction, a {@code create} with {@code ignore_existing}, a nested transaction
 * per chunk, a {@code lock} whose {@code node_id} is read as {@code #<id>}.
 */
class MasterTransactionConformanceTest {

  private final ManualClock clock = new ManualClock();

  @RegisterExtension
  final YtEmulatorExtension yt =
      new YtEmulatorExtension(EmulatorOptions.defaults().withClock(clock));

  private final RawHttp http = new RawHttp(null);

  private Reply post(String command, String parameters) {
    return http.command("POST", yt.emulator().url(), command, parameters);
  }

  private Reply get(String command, String parameters) {
    return http.command("GET", yt.emulator().url(), command, parameters);
  }

  private static Reply ok(Reply reply) {
    assertEquals(200, reply.status(), reply.text());
    return reply;
  }

  private String start(String parameters) {
    return ok(post("start_transaction", parameters)).json().path("transaction_id").asText();
  }

  private boolean exists(String path, String tx) {
    String txPart = tx == null ? "" : ",\"transaction_id\":\"" + tx + "\"";
    return ok(get("exists", "{\"path\":\"" + path + "\"" + txPart + "}"))
        .json()
        .path("value")
        .asBoolean();
  }

  @Test
  void changesAreSeenInsideOnlyUntilCommit() {
    String tx = start("{\"timeout\":60000}");
    assertEquals(1, Integer.parseInt(tx.split("-")[2], 16) & 0xffff, "object type Transaction");
    ok(
        post(
            "create",
            "{\"path\":\"//mt/a/b\",\"type\":\"map_node\",\"recursive\":true,\"transaction_id\":\""
                + tx
                + "\"}"));
    assertTrue(exists("//mt/a/b", tx));
    assertFalse(exists("//mt/a", null));
    assertTrue(
        ok(get("list", "{\"path\":\"//sys/transactions\"}")).text().contains(tx),
        "listed while running");
    assertTrue(
        ok(get("get", "{\"path\":\"//sys/transactions\"}")).json().path("value").has(tx),
        "and in the map's value");

    ok(post("commit_transaction", "{\"transaction_id\":\"" + tx + "\"}"));
    assertTrue(exists("//mt/a/b", null));
    assertEquals(
        11000, post("commit_transaction", "{\"transaction_id\":\"" + tx + "\"}").errorCode());
  }

  @Test
  void anAbortDropsTheChanges() {
    ok(post("create", "{\"path\":\"//ab/keep\",\"type\":\"map_node\",\"recursive\":true}"));
    String tx = start("{}");
    ok(post("remove", "{\"path\":\"//ab/keep\",\"transaction_id\":\"" + tx + "\"}"));
    assertFalse(exists("//ab/keep", tx));
    ok(post("abort_transaction", "{\"transaction_id\":\"" + tx + "\"}"));
    assertTrue(exists("//ab/keep", null));
  }

  @Test
  void aNestedCommitHandsItsChangesToTheParent() {
    String outer = start("{}");
    String inner = start("{\"transaction_id\":\"" + outer + "\"}");
    assertEquals(4, Integer.parseInt(inner.split("-")[2], 16) & 0xffff, "NestedTransaction");
    ok(post("set", "{\"path\":\"//sys/@flag\",\"transaction_id\":\"" + inner + "\"}", "\"on\""));
    ok(post("commit_transaction", "{\"transaction_id\":\"" + inner + "\"}"));
    assertEquals(
        "on",
        ok(get("get", "{\"path\":\"//sys/@flag\",\"transaction_id\":\"" + outer + "\"}"))
            .json()
            .path("value")
            .asText());
    assertEquals(500, get("get", "{\"path\":\"//sys/@flag\"}").errorCode());
    ok(post("commit_transaction", "{\"transaction_id\":\"" + outer + "\"}"));
    assertEquals("on", ok(get("get", "{\"path\":\"//sys/@flag\"}")).json().path("value").asText());
  }

  @Test
  void anExpiredTransactionIsGone() {
    String tx = start("{\"timeout\":1000}");
    clock.advance(java.time.Duration.ofMillis(1500));
    assertEquals(
        11000, post("ping_transaction", "{\"transaction_id\":\"" + tx + "\"}").errorCode());
  }

  @Test
  void aFileIsWrittenAndReadTheOfficialClientsWay() {
    String tx = start("{}");
    String inTx = ",\"transaction_id\":\"" + tx + "\"";
    ok(
        post(
            "create",
            "{\"path\":\"//files/f\",\"type\":\"file\",\"recursive\":true,\"ignore_existing\":true"
                + inTx
                + "}"));
    String chunk = start("{\"transaction_id\":\"" + tx + "\"}");
    ok(
        http.send(
            "PUT",
            yt.emulator().url() + "/api/v4/write_file",
            "{\"path\":\"//files/f\",\"transaction_id\":\"" + chunk + "\"}",
            null,
            "data".getBytes(StandardCharsets.UTF_8)));
    ok(post("commit_transaction", "{\"transaction_id\":\"" + chunk + "\"}"));
    assertFalse(exists("//files/f", null));
    ok(post("commit_transaction", "{\"transaction_id\":\"" + tx + "\"}"));

    String read = start("{}");
    String nodeId =
        ok(post(
                "lock",
                "{\"path\":\"//files/f\",\"mode\":\"snapshot\",\"transaction_id\":\""
                    + read
                    + "\"}"))
            .json()
            .path("node_id")
            .asText();
    Reply content =
        ok(get("read_file", "{\"path\":\"#" + nodeId + "\",\"transaction_id\":\"" + read + "\"}"));
    assertEquals("data", content.text());
  }

  private Reply post(String command, String parameters, String body) {
    return http.send(
        "PUT",
        yt.emulator().url() + "/api/v4/" + command,
        parameters,
        null,
        body.getBytes(StandardCharsets.UTF_8),
        "\"json\"");
  }
}
