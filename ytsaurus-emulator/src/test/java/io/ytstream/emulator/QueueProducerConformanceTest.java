package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ytstream.emulator.RawHttp.Reply;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Queue producers over raw HTTP, as the driver serves them ({@code
 * yt/yt/client/driver/queue_commands.cpp}) with the semantics of the server's tests ({@code
 * yt/yt/tests/integration/queues/test_producer.py}) and of {@code
 * yt/yt/ytlib/queue_client/helpers.cpp} ({@code ValidatePushQueueProducerRows}).
 */
class QueueProducerConformanceTest {

  private static final String SESSION =
      "\"producer_path\":\"//p\",\"queue_path\":\"//q\",\"session_id\":\"s\"";

  @RegisterExtension final YtEmulatorExtension yt = new YtEmulatorExtension();

  private final RawHttp http = new RawHttp(null);

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

  private void queue(int tabletCount) {
    ok(
        post(
            "create",
            "{\"path\":\"//q\",\"type\":\"table\",\"attributes\":{\"dynamic\":true,"
                + "\"tablet_count\":"
                + tabletCount
                + ",\"schema\":[{\"name\":\"value\",\"type\":\"string\"}]}}"));
    ok(post("mount_table", "{\"path\":\"//q\"}"));
  }

  private void setUp() {
    queue(1);
    ok(post("create", "{\"path\":\"//p\",\"type\":\"queue_producer\"}"));
  }

  private JsonNode createSession(String extra) {
    return ok(post("create_queue_producer_session", "{" + SESSION + extra + "}")).json();
  }

  /** A push of JSON rows (one per line); {@code extra} adds parameters. */
  private Reply push(String extra, String rows) {
    return http.put(base(), "push_queue_producer", "{" + SESSION + extra + "}", rows);
  }

  private List<String> queueValues() {
    Reply reply =
        ok(http.command("GET", base(), "select_rows", "{\"query\":\"value from [//q]\"}"));
    List<String> values = new ArrayList<>();
    reply.rows().forEach(r -> values.add(r.path("value").asText()));
    return values;
  }

  private JsonNode sessionRow() {
    List<JsonNode> rows =
        ok(http.command("GET", base(), "select_rows", "{\"query\":\"* from [//p]\"}")).rows();
    assertEquals(1, rows.size(), rows.toString());
    return rows.get(0);
  }

  // ---- producers ----

  @Test
  void createOfTypeQueueProducerMakesAMountedSortedTableWithTheSessionSchema() {
    ok(post("create", "{\"path\":\"//p\",\"type\":\"queue_producer\"}"));

    JsonNode attributes = ok(post("get", "{\"path\":\"//p/@\"}")).json().path("value");

    assertEquals("table", attributes.path("type").asText());
    assertTrue(attributes.path("dynamic").asBoolean());
    assertTrue(attributes.path("treat_as_queue_producer").asBoolean());
    assertEquals("mounted", attributes.path("tablet_state").asText());
    List<String> columns = new ArrayList<>();
    attributes.path("schema").path("$value").forEach(c -> columns.add(c.path("name").asText()));
    assertEquals(
        List.of(
            "queue_cluster",
            "queue_path",
            "session_id",
            "sequence_number",
            "epoch",
            "user_meta",
            "system_meta"),
        columns,
        attributes.toString());
  }

  @Test
  void aTableCreatedWithTreatAsQueueProducerServesAfterMount() {
    queue(1);
    ok(
        post(
            "create",
            "{\"path\":\"//p\",\"type\":\"table\",\"attributes\":{\"dynamic\":true,"
                + "\"treat_as_queue_producer\":true}}"));

    assertEquals(1702, post("create_queue_producer_session", "{" + SESSION + "}").errorCode());
    ok(post("mount_table", "{\"path\":\"//p\"}"));
    assertEquals(0, createSession("").path("epoch").asLong());
  }

  // ---- sessions ----

  @Test
  void aSessionStartsAtEpochZeroAndEachCreationBumpsItKeepingUserMeta() {
    setUp();

    JsonNode first = createSession(",\"user_meta\":{\"foo\":[1,2,3]}");
    JsonNode second = createSession("");

    assertEquals(0, first.path("epoch").asLong());
    assertEquals(-1, first.path("sequence_number").asLong());
    assertEquals("{\"foo\":[1,2,3]}", first.path("user_meta").toString());
    assertEquals(1, second.path("epoch").asLong());
    assertEquals("{\"foo\":[1,2,3]}", second.path("user_meta").toString());
    JsonNode row = sessionRow();
    assertEquals("//q", row.path("queue_path").asText());
    assertEquals("s", row.path("session_id").asText());
    assertEquals(yt.emulator().cluster().name(), row.path("queue_cluster").asText());
    assertEquals(1, row.path("epoch").asLong());
  }

  @Test
  void removingASessionDeletesItsRow() {
    setUp();
    createSession(",\"user_meta\":\"m\"");
    createSession("");

    ok(post("remove_queue_producer_session", "{" + SESSION + "}"));

    List<JsonNode> rows =
        ok(http.command("GET", base(), "select_rows", "{\"query\":\"* from [//p]\"}")).rows();
    assertEquals(0, rows.size());
    JsonNode again = createSession("");
    assertEquals(0, again.path("epoch").asLong());
    assertTrue(again.path("user_meta").isNull(), again.toString());
  }

  // ---- pushes ----

  @Test
  void aPushNumberedFromAStartSkipsWhatTheSessionHas() {
    setUp();
    createSession("");

    JsonNode first =
        ok(push(",\"epoch\":0,\"sequence_number\":0", "{\"value\":\"row1\"}\n")).json();
    JsonNode replay =
        ok(push(
                ",\"epoch\":0,\"sequence_number\":0",
                "{\"value\":\"row1\"}\n{\"value\":\"row2\"}\n"))
            .json();

    assertEquals("{\"last_sequence_number\":0,\"skipped_row_count\":0}", first.toString());
    assertEquals("{\"last_sequence_number\":1,\"skipped_row_count\":1}", replay.toString());
    assertEquals(List.of("row1", "row2"), queueValues());
    assertEquals(1, sessionRow().path("sequence_number").asLong());
  }

  @Test
  void rowsNumberThemselvesWithAnEscapedSequenceNumberInJson() {
    setUp();
    createSession("");

    JsonNode result =
        ok(push(
                ",\"epoch\":0",
                "{\"value\":\"a\",\"$$sequence_number\":6}\n"
                    + "{\"value\":\"b\",\"$$sequence_number\":10}\n"))
            .json();

    assertEquals(10, result.path("last_sequence_number").asLong());
    assertEquals(List.of("a", "b"), queueValues());
  }

  @Test
  void binaryYsonRowsCarrySequenceNumbersAndTabletIndexesUnescaped() {
    queue(2);
    ok(post("create", "{\"path\":\"//p\",\"type\":\"queue_producer\"}"));
    createSession("");
    List<Object> rows = new ArrayList<>();
    rows.add(ysonRow("zero", 0L, 3L));
    rows.add(ysonRow("one", 1L, 5L));

    Reply reply =
        http.send(
            "PUT",
            base() + "/api/v4/push_queue_producer",
            "{" + SESSION + ",\"epoch\":0}",
            null,
            YsonBytes.listFragment(rows, true),
            "{\"$value\":\"yson\",\"$attributes\":{\"format\":\"binary\"}}");

    assertEquals(5, ok(reply).json().path("last_sequence_number").asLong());
    List<JsonNode> stored =
        ok(http.command(
                "GET", base(), "select_rows", "{\"query\":\"[$tablet_index], value from [//q]\"}"))
            .rows();
    assertEquals(2, stored.size(), stored.toString());
    assertEquals(0, stored.get(0).path("$$tablet_index").asLong());
    assertEquals("zero", stored.get(0).path("value").asText());
    assertEquals(1, stored.get(1).path("$$tablet_index").asLong());
  }

  private static Map<String, Object> ysonRow(String value, long tablet, long sequenceNumber) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("value", value);
    row.put("$tablet_index", tablet);
    row.put("$sequence_number", sequenceNumber);
    return row;
  }

  @Test
  void epochsAreFencedWith3101And3102() {
    setUp();
    createSession("");
    ok(push(",\"epoch\":0,\"sequence_number\":0", "{\"value\":\"row1\"}\n"));

    assertEquals(
        3101, push(",\"epoch\":1,\"sequence_number\":1", "{\"value\":\"row2\"}\n").errorCode());
    createSession("");
    Reply zombie = push(",\"epoch\":0,\"sequence_number\":1", "{\"value\":\"row2\"}\n");

    assertEquals(400, zombie.status());
    assertEquals(3102, zombie.errorCode(), zombie.text());
    assertEquals(List.of("row1"), queueValues());
  }

  @Test
  void badSequenceNumbersAre3103AndAStringNumberIsAParseError() {
    setUp();
    createSession("");

    assertEquals(3103, push(",\"epoch\":0", "{\"value\":\"a\"}\n").errorCode());
    assertEquals(
        3103,
        push(",\"epoch\":0,\"sequence_number\":17", "{\"value\":\"a\",\"$$sequence_number\":17}\n")
            .errorCode());
    Reply text = push(",\"epoch\":0", "{\"value\":\"a\",\"$$sequence_number\":\"0\"}\n");
    assertEquals(400, text.status());
    assertTrue(
        text.json().path("message").asText().startsWith("Error parsing sequence number from row"),
        text.text());
    assertEquals(List.of(), queueValues());
  }

  @Test
  void aPushStoresItsUserMeta() {
    setUp();
    createSession(",\"user_meta\":{\"filename\":\"file1\"}");

    ok(
        push(
            ",\"epoch\":0,\"sequence_number\":0,\"user_meta\":{\"filename\":\"file2\"}",
            "{\"value\":\"a\"}\n"));

    assertEquals("{\"filename\":\"file2\"}", sessionRow().path("user_meta").toString());
    assertEquals("{\"filename\":\"file2\"}", createSession("").path("user_meta").toString());
  }

  // ---- transactions ----

  @Test
  void pushesInsideATransactionShowAtItsCommit() {
    setUp();
    createSession("");
    String tx =
        ok(post("start_transaction", "{\"type\":\"tablet\"}"))
            .json()
            .path("transaction_id")
            .asText();
    String inTx = ",\"epoch\":0,\"transaction_id\":\"" + tx + "\"";

    ok(push(inTx, "{\"value\":\"row1\",\"$$sequence_number\":0}\n"));
    assertEquals(List.of(), queueValues());
    assertEquals(-1, sessionRow().path("sequence_number").asLong());
    ok(push(inTx + ",\"sequence_number\":5", "{\"value\":\"row2\"}\n"));
    ok(post("commit_transaction", "{\"transaction_id\":\"" + tx + "\"}"));

    assertEquals(List.of("row1", "row2"), queueValues());
    assertEquals(5, sessionRow().path("sequence_number").asLong());
  }

  @Test
  void aPushOverThePerTabletRowLimitIs1717AndWritesNothing() {
    setUp();
    createSession("");
    yt.emulator().cluster().setMaxRowsPerTabletPerTransaction(2);

    Reply reply =
        push(
            ",\"epoch\":0,\"sequence_number\":0",
            "{\"value\":\"a\"}\n{\"value\":\"b\"}\n{\"value\":\"c\"}\n");

    assertTrue(reply.allCodes().contains(1717), reply.text());
    assertEquals(List.of(), queueValues());
    assertEquals(-1, sessionRow().path("sequence_number").asLong());
  }

  // ---- --state-dir ----

  @Test
  void sessionsAndPushesSurviveARestart(@TempDir Path state) {
    String parameters = "{" + SESSION + ",\"epoch\":0,\"sequence_number\":0}";
    try (YtEmulator first = YtEmulator.start(EmulatorOptions.defaults().withStateDir(state))) {
      String url = first.url();
      ok(
          http.command(
              "POST",
              url,
              "create",
              "{\"path\":\"//q\",\"type\":\"table\",\"attributes\":{\"dynamic\":true,"
                  + "\"schema\":[{\"name\":\"value\",\"type\":\"string\"}]}}"));
      ok(http.command("POST", url, "mount_table", "{\"path\":\"//q\"}"));
      ok(http.command("POST", url, "create", "{\"path\":\"//p\",\"type\":\"queue_producer\"}"));
      ok(http.command("POST", url, "create_queue_producer_session", "{" + SESSION + "}"));
      ok(http.put(url, "push_queue_producer", parameters, "{\"value\":\"a\"}\n"));
    }
    try (YtEmulator second = YtEmulator.start(EmulatorOptions.defaults().withStateDir(state))) {
      JsonNode replay =
          ok(http.put(second.url(), "push_queue_producer", parameters, "{\"value\":\"a\"}\n"))
              .json();
      JsonNode again =
          ok(http.command(
                  "POST", second.url(), "create_queue_producer_session", "{" + SESSION + "}"))
              .json();

      assertEquals(1, replay.path("skipped_row_count").asLong(), replay.toString());
      assertEquals(1, again.path("epoch").asLong());
      assertEquals(0, again.path("sequence_number").asLong());
    }
  }
}
