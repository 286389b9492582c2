package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ytstream.emulator.RawHttp.Reply;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Queue producer sessions and pushes over raw HTTP as the server's code does them, beyond what its
 * tests show. Pinned to: {@code yt/yt/ytlib/api/native/transaction.cpp} ({@code
 * TTransaction::DoPushQueueProducer}: permissions first; the error texts of an unknown session and
 * of the two epoch errors; each session's last number kept per transaction); {@code
 * yt/yt/ytlib/api/native/client_dynamic_tables_impl.cpp} ({@code DoCreateQueueProducerSession}:
 * {@code mutation_id} kept in {@code system_meta}, a repeat with it keeps the epoch; the queue
 * never resolved); {@code yt/yt/ytlib/queue_client/config.cpp} (the {@code system_meta} shape);
 * {@code library/cpp/yt/misc/guid.cpp} ({@code TGuid::FromString}: a malformed id is refused);
 * {@code yt/yt/ytlib/queue_client/helpers.cpp} ({@code ValidatePushQueueProducerRows}: pushed rows
 * are read against the queue's columns without {@code $timestamp} and {@code
 * $cumulative_data_weight}, which the tablet node fills, {@code ordered_dynamic_store.cpp}, {@code
 * WriteRow}). A removal ({@code DoRemoveQueueProducerSession}) deletes the key without looking for
 * it and takes no {@code mutation_id}.
 */
class ProducerServerCodeConformanceTest {

  private static final String ROOT_TOKEN = "root-secret";
  private static final String BOB_TOKEN = "bob-secret";
  private static final String SESSION =
      "\"producer_path\":\"//p\",\"queue_path\":\"//q\",\"session_id\":\"s\"";

  @RegisterExtension
  final YtEmulatorExtension yt =
      new YtEmulatorExtension(
          EmulatorOptions.defaults().withToken(ROOT_TOKEN).withUser(BOB_TOKEN, "bob"));

  private final RawHttp http = new RawHttp(ROOT_TOKEN);
  private final RawHttp bob = new RawHttp(BOB_TOKEN);

  private String base() {
    return yt.emulator().url();
  }

  private Reply post(String command, String parameters) {
    return http.command("POST", base(), command, parameters);
  }

  private static Reply ok(Reply reply) {
    assertEquals(200, reply.status(), reply.text());
    return reply;
  }

  private static JsonNode error(Reply reply, int code) {
    assertEquals(400, reply.status(), reply.text());
    JsonNode error = reply.json();
    assertEquals(code, error.path("code").asInt(), error.toString());
    return error;
  }

  private void setUp() {
    ok(
        post(
            "create",
            "{\"path\":\"//q\",\"type\":\"table\",\"attributes\":{\"dynamic\":true,"
                + "\"schema\":[{\"name\":\"value\",\"type\":\"string\"}]}}"));
    ok(post("mount_table", "{\"path\":\"//q\"}"));
    ok(post("create", "{\"path\":\"//p\",\"type\":\"queue_producer\"}"));
  }

  private Reply create(String extra) {
    return post("create_queue_producer_session", "{" + SESSION + extra + "}");
  }

  private Reply push(RawHttp as, String extra, String rows) {
    return as.put(base(), "push_queue_producer", "{" + SESSION + extra + "}", rows);
  }

  private List<String> queueValues() {
    List<String> values = new ArrayList<>();
    ok(http.command("GET", base(), "select_rows", "{\"query\":\"value from [//q]\"}"))
        .rows()
        .forEach(r -> values.add(r.path("value").asText()));
    return values;
  }

  private JsonNode sessionRow() {
    List<JsonNode> rows =
        ok(http.command("GET", base(), "select_rows", "{\"query\":\"* from [//p]\"}")).rows();
    assertEquals(1, rows.size(), rows.toString());
    return rows.get(0);
  }

  @Test
  void aRepeatWithTheSameMutationIdKeepsTheEpochAndTheIdIsKeptInSystemMeta() {
    setUp();

    JsonNode first = ok(create(",\"mutation_id\":\"1a-2b-3c-4d\"")).json();
    JsonNode repeat = ok(create(",\"mutation_id\":\"1a-2b-3c-4d\",\"retry\":true")).json();
    JsonNode repeatWithoutRetry = ok(create(",\"mutation_id\":\"1a-2b-3c-4d\"")).json();
    JsonNode stored = sessionRow();
    JsonNode other = ok(create(",\"mutation_id\":\"1a-2b-3c-4e\"")).json();

    assertEquals(0, first.path("epoch").asLong(), first.toString());
    assertEquals(0, repeat.path("epoch").asLong(), repeat.toString());
    assertEquals(0, repeatWithoutRetry.path("epoch").asLong(), repeatWithoutRetry.toString());
    assertEquals(
        "1a-2b-3c-4d", stored.path("system_meta").path("mutation_id").asText(), stored.toString());
    assertEquals(1, other.path("epoch").asLong(), other.toString());
    assertEquals("1a-2b-3c-4e", sessionRow().path("system_meta").path("mutation_id").asText());
  }

  @Test
  void aMalformedMutationIdIsRefusedAsTheGuidParserRefusesIt() {
    setUp();

    JsonNode uuid = error(create(",\"mutation_id\":\"123e4567-e89b-12d3-a456-426614174000\""), 1);
    JsonNode threeParts = error(create(",\"mutation_id\":\"1-2-3\""), 1);

    assertTrue(uuid.path("message").asText().startsWith("Error parsing GUID"), uuid.toString());
    assertTrue(
        threeParts.path("message").asText().startsWith("Error parsing GUID"),
        threeParts.toString());
  }

  @Test
  void aSessionForAQueueThatDoesNotExistIsCreated() {
    ok(post("create", "{\"path\":\"//p\",\"type\":\"queue_producer\"}"));

    JsonNode created =
        ok(post(
                "create_queue_producer_session",
                "{\"producer_path\":\"//p\",\"queue_path\":\"//nowhere\",\"session_id\":\"s\"}"))
            .json();

    assertEquals(0, created.path("epoch").asLong(), created.toString());
    assertEquals(-1, created.path("sequence_number").asLong(), created.toString());
  }

  @Test
  void anUnknownSessionAndTheEpochErrorsAreWordedAsTheServerWordsThem() {
    setUp();

    JsonNode unknown =
        error(push(http, ",\"epoch\":0,\"sequence_number\":0", "{\"value\":\"a\"}\n"), 1);
    ok(create(""));
    ok(create(""));
    JsonNode zombie =
        error(push(http, ",\"epoch\":0,\"sequence_number\":0", "{\"value\":\"a\"}\n"), 3102);
    JsonNode invalid =
        error(push(http, ",\"epoch\":2,\"sequence_number\":0", "{\"value\":\"a\"}\n"), 3101);

    assertEquals("Unknown queue producer session \"s\"", unknown.path("message").asText());
    assertEquals(
        "Received session epoch 0 is less than the actual 1 epoch, probably it is a zombie",
        zombie.path("message").asText());
    assertEquals(
        "Received epoch 2 is greater than the actual 1 epoch", invalid.path("message").asText());
  }

  @Test
  void permissionsAreCheckedBeforeTheSessionIsLookedUp() {
    setUp();

    // No session exists: a user without write on the producer hears of the permission first.
    JsonNode denied =
        error(push(bob, ",\"epoch\":5,\"sequence_number\":0", "{\"value\":\"a\"}\n"), 901);

    assertEquals("write", denied.path("attributes").path("permission").asText(), denied.toString());
    assertEquals("bob", denied.path("attributes").path("user").asText(), denied.toString());
  }

  @Test
  void aSecondCopyOfAPushInOneTransactionIsSkipped() {
    setUp();
    ok(create(""));
    String tx =
        ok(post("start_transaction", "{\"type\":\"tablet\"}"))
            .json()
            .path("transaction_id")
            .asText();
    String inTx = ",\"epoch\":0,\"sequence_number\":0,\"transaction_id\":\"" + tx + "\"";
    String rows = "{\"value\":\"a\"}\n{\"value\":\"b\"}\n";

    JsonNode first = ok(push(http, inTx, rows)).json();
    JsonNode again = ok(push(http, inTx, rows)).json();
    ok(post("commit_transaction", "{\"transaction_id\":\"" + tx + "\"}"));

    assertEquals(0, first.path("skipped_row_count").asLong(), first.toString());
    assertEquals(2, again.path("skipped_row_count").asLong(), again.toString());
    assertEquals(1, again.path("last_sequence_number").asLong(), again.toString());
    assertEquals(List.of("a", "b"), queueValues());
    assertEquals(1, sessionRow().path("sequence_number").asLong());
  }

  private String startTransaction() {
    return ok(post("start_transaction", "{\"type\":\"tablet\"}"))
        .json()
        .path("transaction_id")
        .asText();
  }

  private Reply commit(String tx) {
    return post("commit_transaction", "{\"transaction_id\":\"" + tx + "\"}");
  }

  @Test
  void everyPushRewritesTheSessionRowSoTwoTransactionsThroughOneSessionConflict() {
    setUp();
    ok(create(""));
    ok(push(http, ",\"epoch\":0,\"sequence_number\":0", "{\"value\":\"a\"}\n"));
    String first = startTransaction();
    String second = startTransaction();

    // The second transaction's push is all skipped (row 0 is held), yet it writes the session row.
    ok(
        push(
            http,
            ",\"epoch\":0,\"sequence_number\":1,\"transaction_id\":\"" + first + "\"",
            "{\"value\":\"b\"}\n"));
    JsonNode skipped =
        ok(push(
                http,
                ",\"epoch\":0,\"sequence_number\":0,\"transaction_id\":\"" + second + "\"",
                "{\"value\":\"a\"}\n"))
            .json();
    ok(commit(first));
    Reply conflict = commit(second);

    assertEquals(1, skipped.path("skipped_row_count").asLong(), skipped.toString());
    assertEquals(400, conflict.status(), conflict.text());
    assertTrue(conflict.allCodes().contains(1700), conflict.text());
    assertEquals(List.of("a", "b"), queueValues());
    assertEquals(1, sessionRow().path("sequence_number").asLong());
  }

  @Test
  void removingASessionThatDoesNotExistSucceedsAndTakesNoMutationId() {
    setUp();

    Reply removed = post("remove_queue_producer_session", "{" + SESSION + "}");
    Reply withId =
        post("remove_queue_producer_session", "{" + SESSION + ",\"mutation_id\":\"not-a-guid\"}");

    assertEquals("{}", ok(removed).json().toString());
    assertEquals("{}", ok(withId).json().toString(), "remove has no mutating options to parse");
  }

  @Test
  void aPushIntoAQueueWithLagColumnsLeavesThemToTheServer() {
    ok(
        post(
            "create",
            "{\"path\":\"//q\",\"type\":\"table\",\"attributes\":{\"dynamic\":true,"
                + "\"schema\":[{\"name\":\"value\",\"type\":\"string\"},"
                + "{\"name\":\"$timestamp\",\"type\":\"uint64\"},"
                + "{\"name\":\"$cumulative_data_weight\",\"type\":\"int64\"}]}}"));
    ok(post("mount_table", "{\"path\":\"//q\"}"));
    ok(post("create", "{\"path\":\"//p\",\"type\":\"queue_producer\"}"));
    ok(create(""));

    ok(push(http, ",\"epoch\":0,\"sequence_number\":0", "{\"value\":\"ab\"}\n{\"value\":\"c\"}\n"));

    List<JsonNode> rows =
        ok(http.command(
                "GET",
                base(),
                "pull_queue",
                "{\"queue_path\":\"//q\",\"partition_index\":0,\"offset\":0}"))
            .rows();
    assertEquals(2, rows.size(), rows.toString());
    assertTrue(rows.get(0).path("$$timestamp").asLong() > 0, rows.toString());
    // As an inserted row weighs (WriteRow): 1 + the value + 8 for $timestamp + 8 for the column.
    assertEquals(1 + 2 + 8 + 8, rows.get(0).path("$$cumulative_data_weight").asLong());
    assertEquals(19 + 1 + 1 + 8 + 8, rows.get(1).path("$$cumulative_data_weight").asLong());
  }
}
