package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ytstream.emulator.RawHttp.Reply;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Queue and dynamic-table commands as the official client uses them: registrations keep their
 * {@code partitions} and list rich paths with the cluster ({@code
 * yt/yt/client/driver/queue_commands.cpp}); a client-side advance, the client's default, writes the
 * consumer row without the registration check ({@code
 * yt/yt/client/api/queue_transaction_mixin.cpp}); inside a tablet transaction {@code select_rows}
 * reads any table, and an insert into an unmounted table fails the commit, not the insert.
 */
class QueueClientConformanceTest {

  @RegisterExtension static final YtEmulatorExtension YT = new YtEmulatorExtension();

  private final RawHttp http = new RawHttp(null);
  private String dir;

  private Reply post(String command, String parameters) {
    return http.command("POST", YT.emulator().url(), command, parameters);
  }

  private static Reply ok(Reply reply) {
    assertEquals(200, reply.status(), reply.text());
    return reply;
  }

  @BeforeEach
  void directory() {
    dir = "//qc/" + System.nanoTime();
    ok(
        post(
            "create",
            "{\"path\":\""
                + dir
                + "/q\",\"type\":\"table\",\"recursive\":true,\"attributes\":{\"dynamic\":true,"
                + "\"tablet_count\":2,\"schema\":[{\"name\":\"v\",\"type\":\"string\"}]}}"));
    ok(post("mount_table", "{\"path\":\"" + dir + "/q\"}"));
    ok(post("create", "{\"path\":\"" + dir + "/c\",\"type\":\"queue_consumer\"}"));
  }

  @Test
  void registrationsKeepPartitionsAndListPathsWithTheCluster() {
    ok(
        post(
            "register_queue_consumer",
            "{\"queue_path\":\""
                + dir
                + "/q\",\"consumer_path\":\""
                + dir
                + "/c\",\"vital\":false,\"partitions\":[1]}"));
    JsonNode listed =
        ok(http.command(
                "GET",
                YT.emulator().url(),
                "list_queue_consumer_registrations",
                "{\"queue_path\":\"" + dir + "/q\"}"))
            .json()
            .get(0);
    assertEquals("[1]", listed.path("partitions").toString());
    assertEquals(
        YT.emulator().clusterName(), listed.at("/queue_path/$attributes/cluster").asText());
    assertEquals(dir + "/q", listed.at("/queue_path/$value").asText());
  }

  @Test
  void aClientSideAdvanceNeedsNoRegistration() {
    String advance =
        "{\"consumer_path\":\""
            + dir
            + "/c\",\"queue_path\":\""
            + dir
            + "/q\",\"partition_index\":0,\"new_offset\":3";
    Reply serverSide = post("advance_queue_consumer", advance + "}");
    assertTrue(serverSide.allCodes().contains(901), serverSide.text());
    ok(post("advance_queue_consumer", advance + ",\"client_side\":true}"));
    Reply stale =
        post("advance_queue_consumer", advance + ",\"old_offset\":0,\"client_side\":true}");
    assertTrue(stale.allCodes().contains(3100), stale.text());
  }

  @Test
  void insideATransactionSelectReadsAnyTableAndAnUnmountedTableFailsTheCommit() {
    ok(
        post(
            "create",
            "{\"path\":\""
                + dir
                + "/s\",\"type\":\"table\",\"attributes\":{\"dynamic\":true,"
                + "\"schema\":[{\"name\":\"k\",\"type\":\"int64\",\"sort_order\":\"ascending\"},"
                + "{\"name\":\"v\",\"type\":\"string\"}]}}"));
    ok(post("mount_table", "{\"path\":\"" + dir + "/s\"}"));
    ok(
        http.put(
            YT.emulator().url(),
            "insert_rows",
            "{\"path\":\"" + dir + "/s\"}",
            "{\"k\":1,\"v\":\"a\"}\n"));
    String tx =
        ok(post("start_transaction", "{\"type\":\"tablet\"}"))
            .json()
            .path("transaction_id")
            .asText();
    Reply selected =
        ok(
            http.command(
                "GET",
                YT.emulator().url(),
                "select_rows",
                "{\"query\":\"* from [" + dir + "/s]\",\"transaction_id\":\"" + tx + "\"}"));
    assertEquals(List.of("a"), selected.rows().stream().map(r -> r.path("v").asText()).toList());

    ok(post("unmount_table", "{\"path\":\"" + dir + "/s\"}"));
    ok(
        http.put(
            YT.emulator().url(),
            "insert_rows",
            "{\"path\":\"" + dir + "/s\",\"transaction_id\":\"" + tx + "\"}",
            "{\"k\":2,\"v\":\"b\"}\n"));
    Reply commit = post("commit_transaction", "{\"transaction_id\":\"" + tx + "\"}");
    assertTrue(commit.allCodes().contains(1702), commit.text());
  }
}
