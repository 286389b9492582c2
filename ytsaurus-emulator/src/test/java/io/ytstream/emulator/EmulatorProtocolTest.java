package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ytstream.emulator.RawHttp.Reply;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Drives the emulator with raw requests written from the HTTP API reference (method, headers, body)
 * and checks statuses, envelopes, error JSON and headers, and the sticky transaction rule. Section
 * numbers refer to the reference.
 */
class EmulatorProtocolTest {

  static final String TOKEN = "protocol-test-token";

  @RegisterExtension
  final YtEmulatorExtension yt =
      new YtEmulatorExtension(EmulatorOptions.defaults().withProxyCount(2).withToken(TOKEN));

  private final RawHttp http = new RawHttp(TOKEN);

  private String proxy(int index) {
    return yt.emulator().proxyUrls().get(index);
  }

  private String base() {
    return proxy(0);
  }

  // ---- discovery (2.1) ----

  @Test
  void apiListsV4AndV4ListsCommandsWithTheirTypes() {
    assertTrue(http.send("GET", base() + "/api", null, null, null).text().contains("v4"));

    JsonNode commands = http.send("GET", base() + "/api/v4", null, null, null).json();
    JsonNode insert = find(commands, "insert_rows");
    assertEquals("tabular", insert.path("input_type").asText());
    assertTrue(insert.path("is_heavy").asBoolean());
    JsonNode pull = find(commands, "pull_queue_consumer");
    assertEquals("tabular", pull.path("output_type").asText());
    assertFalse(pull.path("is_volatile").asBoolean());
  }

  private static JsonNode find(JsonNode commands, String name) {
    for (JsonNode command : commands) {
      if (command.path("name").asText().equals(name)) {
        return command;
      }
    }
    throw new AssertionError(name + " is not listed");
  }

  // ---- authentication (2.1, 2.2) ----

  @Test
  void requestsWithoutOrWithAWrongTokenGet401WithErrorJson() {
    RawHttp anonymous = new RawHttp(null);
    Reply missing = anonymous.command("GET", base(), "get", "{\"path\":\"//sys/@cluster_name\"}");
    Reply wrong =
        new RawHttp("not-the-token")
            .command("GET", base(), "get", "{\"path\":\"//sys/@cluster_name\"}");

    assertEquals(401, missing.status());
    assertEquals(111, missing.errorCode());
    assertEquals("111", missing.header("X-YT-Response-Code"));
    assertEquals(401, wrong.status());
    assertFalse(wrong.text().contains(TOKEN), "the expected token is never echoed");
    assertEquals(
        200, http.command("GET", base(), "get", "{\"path\":\"//sys/@cluster_name\"}").status());
  }

  // ---- envelopes (2.2) ----

  @Test
  void getAndExistsAnswerInTheV4ValueEnvelope() {
    Reply name = http.command("GET", base(), "get", "{\"path\":\"//sys/@cluster_name\"}");
    Reply exists = http.command("GET", base(), "exists", "{\"path\":\"//nowhere\"}");

    assertEquals(200, name.status());
    assertEquals("emulator", name.json().path("value").asText());
    assertEquals("application/json", name.header("Content-Type"));
    assertNotNull(name.header("X-YT-Request-Id"));
    assertNotNull(name.header("X-YT-Proxy"));
    assertFalse(exists.json().path("value").asBoolean(true));
  }

  @Test
  void parametersMayComeInTheQueryStringOrAJsonBody() {
    Reply query =
        http.send("GET", base() + "/api/v4/get?path=//sys/@cluster_name", null, null, null);
    Reply body =
        http.send(
            "POST",
            base() + "/api/v4/create",
            null,
            "application/json",
            "{\"path\":\"//home/a\",\"type\":\"map_node\",\"recursive\":true}"
                .getBytes(StandardCharsets.UTF_8));

    assertEquals("emulator", query.json().path("value").asText());
    assertEquals(200, body.status(), body.text());
    assertTrue(body.json().has("node_id"), body.text());
  }

  @Test
  void missingNodeIs500InBodyAndHeaders() {
    Reply reply = http.command("GET", base(), "get", "{\"path\":\"//no/such/node\"}");

    assertEquals(400, reply.status());
    assertEquals(500, reply.errorCode());
    assertEquals("500", reply.header("X-YT-Response-Code"));
    assertTrue(reply.header("X-YT-Error").contains("\"code\":500"), reply.header("X-YT-Error"));
    assertTrue(reply.json().path("message").asText().contains("Error resolving path"));
    assertTrue(reply.json().has("inner_errors"));
  }

  @Test
  void creatingAnExistingNodeIs501UnlessIgnoreExisting() {
    String params = "{\"path\":\"//home/x\",\"type\":\"map_node\",\"recursive\":true}";
    assertEquals(200, http.command("POST", base(), "create", params).status());

    Reply again = http.command("POST", base(), "create", params);
    Reply ignored =
        http.command(
            "POST",
            base(),
            "create",
            "{\"path\":\"//home/x\",\"type\":\"map_node\",\"ignore_existing\":true}");

    assertEquals(501, again.errorCode());
    assertEquals(200, ignored.status());
  }

  // ---- a queue from scratch (1.1, 1.3, 1.4, 3.1-3.4, 3.8) ----

  private void createQueueAndConsumer(int tabletCount) {
    Reply queue =
        http.command(
            "POST",
            base(),
            "create",
            "{\"path\":\"//home/q\",\"type\":\"table\",\"recursive\":true,\"attributes\":"
                + "{\"dynamic\":true,\"schema\":[{\"name\":\"value\",\"type\":\"string\"},"
                + "{\"name\":\"$timestamp\",\"type\":\"uint64\"}]}}");
    assertEquals(200, queue.status(), queue.text());
    if (tabletCount > 1) {
      ok(
          http.command(
              "POST",
              base(),
              "reshard_table",
              "{\"path\":\"//home/q\",\"tablet_count\":" + tabletCount + "}"));
    }
    ok(http.command("POST", base(), "mount_table", "{\"path\":\"//home/q\"}"));
    ok(
        http.command(
            "POST", base(), "create", "{\"path\":\"//home/c\",\"type\":\"queue_consumer\"}"));
    ok(
        http.command(
            "POST",
            base(),
            "register_queue_consumer",
            "{\"queue_path\":\"//home/q\",\"consumer_path\":\"//home/c\",\"vital\":false}"));
  }

  private static Reply ok(Reply reply) {
    assertEquals(200, reply.status(), reply.text());
    return reply;
  }

  @Test
  void dynamicTablesAreCreatedUnmountedAndReshardNeedsUnmounted() {
    ok(
        http.command(
            "POST",
            base(),
            "create",
            "{\"path\":\"//home/q\",\"type\":\"table\",\"recursive\":true,\"attributes\":"
                + "{\"dynamic\":true,\"schema\":[{\"name\":\"value\",\"type\":\"string\"}]}}"));

    Reply write = http.put(base(), "insert_rows", "{\"path\":\"//home/q\"}", "{\"value\":\"a\"}\n");
    assertEquals(1702, write.errorCode(), write.text());
    assertEquals(
        "unmounted",
        http.command("GET", base(), "get", "{\"path\":\"//home/q/@tablet_state\"}")
            .json()
            .path("value")
            .asText());

    ok(http.command("POST", base(), "mount_table", "{\"path\":\"//home/q\"}"));
    Reply reshardMounted =
        http.command("POST", base(), "reshard_table", "{\"path\":\"//home/q\",\"tablet_count\":3}");
    assertTrue(reshardMounted.allCodes().contains(1706), reshardMounted.text());
    ok(http.command("POST", base(), "unmount_table", "{\"path\":\"//home/q\"}"));
    ok(http.command("POST", base(), "reshard_table", "{\"path\":\"//home/q\",\"tablet_count\":3}"));
    assertEquals(
        3,
        http.command("GET", base(), "get", "{\"path\":\"//home/q/@tablet_count\"}")
            .json()
            .path("value")
            .asInt());
  }

  @Test
  void registerNeedsVital() {
    createQueueAndConsumer(1);
    Reply reply =
        http.command(
            "POST",
            base(),
            "register_queue_consumer",
            "{\"queue_path\":\"//home/q\",\"consumer_path\":\"//home/c\"}");
    assertEquals(400, reply.status());
  }

  @Test
  void insertThenPullWithTabletIndexRowIndexAndUtf8Text() {
    createQueueAndConsumer(2);
    Reply insert =
        http.put(
            base(),
            "insert_rows",
            "{\"path\":\"//home/q\"}",
            "{\"$$tablet_index\":1,\"value\":\"привет\"}\n{\"$$tablet_index\":1,\"value\":\"b\"}\n");
    ok(insert);

    Reply pulled =
        http.command(
            "GET",
            base(),
            "pull_queue_consumer",
            "{\"consumer_path\":\"//home/c\",\"queue_path\":\"//home/q\",\"partition_index\":1,"
                + "\"offset\":0,\"max_row_count\":10}");

    List<JsonNode> rows = ok(pulled).rows();
    assertEquals(2, rows.size());
    assertEquals(1, rows.get(0).path("$$tablet_index").asInt());
    assertEquals(0, rows.get(0).path("$$row_index").asLong());
    assertEquals(1, rows.get(1).path("$$row_index").asLong());
    assertEquals("привет", rows.get(0).path("value").asText());
    assertTrue(rows.get(0).path("$$timestamp").asLong() > 0, "declared $timestamp is filled");
  }

  @Test
  void withoutEncodeUtf8FalseStringsAreByteStrings() {
    createQueueAndConsumer(1);
    http.put(base(), "insert_rows", "{\"path\":\"//home/q\"}", "{\"value\":\"é\"}\n");

    Reply pulled =
        http.getWithOutputFormat(
            base()
                + "/api/v4/pull_queue_consumer?consumer_path=//home/c&queue_path=//home/q"
                + "&partition_index=0&offset=0",
            "\"json\"");

    // é is C3 A9 in UTF-8; with encode_utf8=true each byte becomes one code point.
    assertEquals("\u00c3\u00a9", pulled.rows().get(0).path("value").asText());
  }

  @Test
  void getTabletInfosAndTrimRows() {
    createQueueAndConsumer(1);
    http.put(
        base(),
        "insert_rows",
        "{\"path\":\"//home/q\"}",
        "{\"value\":\"a\"}\n{\"value\":\"b\"}\n{\"value\":\"c\"}\n");
    ok(
        http.command(
            "POST",
            base(),
            "trim_rows",
            "{\"path\":\"//home/q\",\"tablet_index\":0,\"trimmed_row_count\":2}"));

    JsonNode tablet =
        ok(http.command(
                "POST",
                base(),
                "get_tablet_infos",
                "{\"path\":\"//home/q\",\"tablet_indexes\":[0]}"))
            .json()
            .path("tablets")
            .get(0);
    List<JsonNode> rows =
        http.command(
                "GET",
                base(),
                "pull_queue_consumer",
                "{\"consumer_path\":\"//home/c\",\"queue_path\":\"//home/q\","
                    + "\"partition_index\":0,\"offset\":0}")
            .rows();

    assertEquals(3, tablet.path("total_row_count").asLong());
    assertEquals(2, tablet.path("trimmed_row_count").asLong());
    assertEquals(1, rows.size(), "a trimmed offset reads from the first surviving row");
    assertEquals(2, rows.get(0).path("$$row_index").asLong());
  }

  @Test
  void pullIsShortAtMaxDataWeightOrMaxRowCountButNeverEmptyBeforeTheEnd() {
    createQueueAndConsumer(1);
    StringBuilder rows = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      rows.append("{\"value\":\"0123456789\"}\n");
    }
    ok(http.put(base(), "insert_rows", "{\"path\":\"//home/q\"}", rows.toString()));
    String pull =
        "{\"consumer_path\":\"//home/c\",\"queue_path\":\"//home/q\",\"partition_index\":0,"
            + "\"offset\":%d,\"max_row_count\":%d,\"max_data_weight\":%d}";

    // A row weighs 1 + $tablet_index 8 + $row_index 8 + value 10 + $timestamp 8 = 35.
    List<JsonNode> byWeight =
        ok(http.command("GET", base(), "pull_queue_consumer", String.format(pull, 0, 100, 80)))
            .rows();
    List<JsonNode> heavierThanTheLimit =
        ok(http.command("GET", base(), "pull_queue_consumer", String.format(pull, 0, 100, 1)))
            .rows();
    List<JsonNode> byCount =
        ok(http.command("GET", base(), "pull_queue_consumer", String.format(pull, 1, 3, 1 << 20)))
            .rows();
    List<JsonNode> rest =
        ok(http.command("GET", base(), "pull_queue_consumer", String.format(pull, 2, 100, 1 << 20)))
            .rows();

    assertEquals(3, byWeight.size(), "below 80 after 70 bytes: the row that crosses 80 goes too");
    assertEquals(1, heavierThanTheLimit.size(), "at least one row, however heavy");
    assertEquals(List.of(1L, 2L, 3L), rowIndexes(byCount));
    assertEquals(List.of(2L, 3L, 4L), rowIndexes(rest), "a short read was not the end");
  }

  private static List<Long> rowIndexes(List<JsonNode> rows) {
    List<Long> indexes = new ArrayList<>();
    rows.forEach(r -> indexes.add(r.path("$$row_index").asLong()));
    return indexes;
  }

  @Test
  void pullByAnUnregisteredConsumerIs901() {
    createQueueAndConsumer(1);
    ok(
        http.command(
            "POST", base(), "create", "{\"path\":\"//home/other\",\"type\":\"queue_consumer\"}"));

    Reply reply =
        http.command(
            "GET",
            base(),
            "pull_queue_consumer",
            "{\"consumer_path\":\"//home/other\",\"queue_path\":\"//home/q\","
                + "\"partition_index\":0,\"offset\":0}");

    assertEquals(400, reply.status());
    assertTrue(reply.allCodes().contains(901), reply.text());
    assertTrue(reply.text().contains("is not registered for queue"), reply.text());
  }

  @Test
  void advanceWithAStaleOldOffsetIs3100InsideAGenericError() {
    createQueueAndConsumer(1);
    ok(
        http.command(
            "POST",
            base(),
            "advance_queue_consumer",
            "{\"consumer_path\":\"//home/c\",\"queue_path\":\"//home/q\",\"partition_index\":0,"
                + "\"old_offset\":0,\"new_offset\":5}"));

    Reply stale =
        http.command(
            "POST",
            base(),
            "advance_queue_consumer",
            "{\"consumer_path\":\"//home/c\",\"queue_path\":\"//home/q\",\"partition_index\":0,"
                + "\"old_offset\":0,\"new_offset\":6}");
    List<JsonNode> offsets =
        http.command(
                "GET",
                base(),
                "select_rows",
                "{\"query\":\"partition_index, [offset] from [//home/c] where queue_cluster ="
                    + " \\\"emulator\\\" and queue_path = \\\"//home/q\\\"\"}")
            .rows();

    assertEquals(400, stale.status());
    assertEquals(1, stale.errorCode(), "the top level is a generic wrapper");
    assertTrue(stale.allCodes().contains(3100), stale.text());
    assertTrue(stale.text().contains("expected offset 0, found offset 5"), stale.text());
    assertEquals(1, offsets.size());
    assertEquals(5, offsets.get(0).path("offset").asLong());
    assertEquals(0, offsets.get(0).path("partition_index").asLong());
  }

  // ---- sticky tablet transactions (3.6) ----

  @Test
  void aTabletTransactionLivesOnlyOnTheProxyThatStartedIt() {
    createQueueAndConsumer(1);
    String tx =
        ok(http.command(
                "POST", proxy(0), "start_transaction", "{\"type\":\"tablet\",\"timeout\":30000}"))
            .json()
            .path("transaction_id")
            .asText();

    Reply elsewhere =
        http.put(
            proxy(1),
            "insert_rows",
            "{\"path\":\"//home/q\",\"transaction_id\":\"" + tx + "\"}",
            "{\"value\":\"x\"}\n");
    Reply commitElsewhere =
        http.command("POST", proxy(1), "commit_transaction", "{\"transaction_id\":\"" + tx + "\"}");

    assertEquals(11000, elsewhere.errorCode());
    assertTrue(
        elsewhere.json().path("message").asText().startsWith("Sticky transaction " + tx),
        elsewhere.text());
    assertTrue(elsewhere.text().contains("consider using RPC API instead"));
    assertEquals(11000, commitElsewhere.errorCode());

    ok(
        http.put(
            proxy(0),
            "insert_rows",
            "{\"path\":\"//home/q\",\"transaction_id\":\"" + tx + "\"}",
            "{\"value\":\"x\"}\n"));
    ok(
        http.command(
            "POST",
            proxy(0),
            "advance_queue_consumer",
            "{\"consumer_path\":\"//home/c\",\"queue_path\":\"//home/q\",\"partition_index\":0,"
                + "\"old_offset\":0,\"new_offset\":1,\"transaction_id\":\""
                + tx
                + "\"}"));
    String pull =
        "{\"consumer_path\":\"//home/c\",\"queue_path\":\"//home/q\",\"partition_index\":0,"
            + "\"offset\":0}";
    assertTrue(
        http.command("GET", proxy(0), "pull_queue_consumer", pull).rows().isEmpty(),
        "uncommitted rows are invisible");

    ok(http.command("POST", proxy(0), "commit_transaction", "{\"transaction_id\":\"" + tx + "\"}"));

    assertEquals(1, http.command("GET", proxy(1), "pull_queue_consumer", pull).rows().size());
    Reply twice =
        http.command("POST", proxy(0), "commit_transaction", "{\"transaction_id\":\"" + tx + "\"}");
    assertTrue(twice.allCodes().contains(11000), twice.text());
  }

  @Test
  void unknownTransactionIs11000AndOnlyMasterAndTabletTransactionsAreOffered() {
    Reply unknown =
        http.command("POST", base(), "ping_transaction", "{\"transaction_id\":\"1-2-3-4\"}");
    Reply other = http.command("POST", base(), "start_transaction", "{\"type\":\"chaos\"}");

    assertEquals(11000, unknown.errorCode());
    assertEquals(400, other.status());
  }

  // ---- select_rows and lookup_rows (3.5) ----

  @Test
  void selectRowsOnAQueueFiltersOnSystemColumns() {
    createQueueAndConsumer(2);
    http.put(
        base(),
        "insert_rows",
        "{\"path\":\"//home/q\"}",
        "{\"$$tablet_index\":0,\"value\":\"a\"}\n{\"$$tablet_index\":0,\"value\":\"b\"}\n"
            + "{\"$$tablet_index\":0,\"value\":\"c\"}\n{\"$$tablet_index\":1,\"value\":\"z\"}\n");

    List<JsonNode> rows =
        ok(http.command(
                "GET",
                base(),
                "select_rows",
                "{\"query\":\"* from [//home/q] where [$tablet_index] = 0 and [$row_index]"
                    + " between 1 and 2\"}"))
            .rows();

    assertEquals(2, rows.size());
    assertEquals("b", rows.get(0).path("value").asText());
    assertEquals(2, rows.get(1).path("$$row_index").asLong());
  }

  @Test
  void sortedTableUpsertDeleteLookup() {
    ok(
        http.command(
            "POST",
            base(),
            "create",
            "{\"path\":\"//home/s\",\"type\":\"table\",\"recursive\":true,\"attributes\":"
                + "{\"dynamic\":true,\"schema\":[{\"name\":\"k\",\"type\":\"int64\","
                + "\"sort_order\":\"ascending\"},{\"name\":\"v\",\"type\":\"string\"}]}}"));
    ok(http.command("POST", base(), "mount_table", "{\"path\":\"//home/s\"}"));
    ok(
        http.put(
            base(),
            "insert_rows",
            "{\"path\":\"//home/s\"}",
            "{\"k\":1,\"v\":\"one\"}\n{\"k\":2,\"v\":\"two\"}\n{\"k\":1,\"v\":\"uno\"}\n"));
    ok(http.put(base(), "delete_rows", "{\"path\":\"//home/s\"}", "{\"k\":2}\n"));

    List<JsonNode> found =
        ok(http.put(base(), "lookup_rows", "{\"path\":\"//home/s\"}", "{\"k\":1}\n{\"k\":2}\n"))
            .rows();
    Reply deleteOnQueue;
    createQueueAndConsumer(1);
    deleteOnQueue = http.put(base(), "delete_rows", "{\"path\":\"//home/q\"}", "{\"value\":1}\n");

    assertEquals(1, found.size());
    assertEquals("uno", found.get(0).path("v").asText());
    assertEquals(400, deleteOnQueue.status(), "delete_rows needs a sorted table");
  }

  // ---- files (3.7) ----

  @Test
  void filesAreWrittenReadMovedWithoutForceListedAndRemoved() {
    ok(
        http.command(
            "POST",
            base(),
            "create",
            "{\"path\":\"//ckpt/offsets\",\"type\":\"map_node\",\"recursive\":true}"));
    ok(
        http.command(
            "POST", base(), "create", "{\"path\":\"//ckpt/offsets/.0.tmp\",\"type\":\"file\"}"));
    byte[] content = "v1\n{\"a\":1}".getBytes(StandardCharsets.UTF_8);
    ok(
        http.send(
            "PUT",
            base() + "/api/v4/write_file",
            "{\"path\":\"//ckpt/offsets/.0.tmp\"}",
            "application/octet-stream",
            content));
    ok(
        http.command(
            "POST",
            base(),
            "move",
            "{\"source_path\":\"//ckpt/offsets/.0.tmp\",\"destination_path\":\"//ckpt/offsets/0\"}"));
    ok(
        http.command(
            "POST", base(), "create", "{\"path\":\"//ckpt/offsets/.x\",\"type\":\"file\"}"));

    Reply read = http.command("GET", base(), "read_file", "{\"path\":\"//ckpt/offsets/0\"}");
    Reply clash =
        http.command(
            "POST",
            base(),
            "move",
            "{\"source_path\":\"//ckpt/offsets/.x\",\"destination_path\":\"//ckpt/offsets/0\"}");
    Reply listed = http.command("GET", base(), "list", "{\"path\":\"//ckpt/offsets\"}");
    Reply size =
        http.command("GET", base(), "get", "{\"path\":\"//ckpt/offsets/0/@compressed_data_size\"}");

    assertEquals("v1\n{\"a\":1}", read.text());
    assertEquals(501, clash.errorCode());
    assertEquals("[\".x\",\"0\"]", listed.json().path("value").toString());
    assertEquals(content.length, size.json().path("value").asLong());

    ok(http.command("POST", base(), "remove", "{\"path\":\"//ckpt/offsets/0\"}"));
    Reply removedAgain = http.command("POST", base(), "remove", "{\"path\":\"//ckpt/offsets/0\"}");
    assertEquals(500, removedAgain.errorCode());
    ok(http.command("POST", base(), "remove", "{\"path\":\"//ckpt/offsets/0\",\"force\":true}"));
  }

  @Test
  void writeFileNeedsAnExistingFileNode() {
    Reply reply =
        http.send(
            "PUT",
            base() + "/api/v4/write_file",
            "{\"path\":\"//nowhere/f\"}",
            "application/octet-stream",
            new byte[] {1});
    assertEquals(500, reply.errorCode());
  }
}
