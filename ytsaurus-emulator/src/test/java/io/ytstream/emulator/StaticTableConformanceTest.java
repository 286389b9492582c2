package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.RawHttp.Reply;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.MasterTransaction;
import io.ytstream.ports.Row;
import io.ytstream.ports.TransactionId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Static tables over HTTP: {@code create} of type {@code table} without {@code dynamic} ({@code
 * yt/yt/server/master/table_server/table_node_type_handler.cpp}), {@code write_table} appending
 * ({@code <append=%true>}) or overwriting and {@code read_table} ({@code
 * yt/yt/client/driver/table_commands.cpp}), in and out of master transactions ({@code
 * transaction_commands.cpp}), with {@code set}/{@code get} of an attribute in the same transaction
 * ({@code cypress_commands.cpp}). The transactions are the in-memory cluster's, so the cluster's
 * {@code StaticTableAppends} port sees what HTTP requests staged.
 */
class StaticTableConformanceTest {

  private static final String TABLE = "//home/st/t";
  private static final String SCHEMA =
      "[{\"name\":\"k\",\"type\":\"int64\"},{\"name\":\"v\",\"type\":\"string\"}]";

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

  private static String in(String tx) {
    return tx == null ? "" : ",\"transaction_id\":\"" + tx + "\"";
  }

  private Reply write(String path, String tx, String rows) {
    return http.put(
        yt.emulator().url(),
        "write_table",
        "{\"path\":\"" + path.replace("\"", "\\\"") + "\"" + in(tx) + "}",
        rows);
  }

  private List<String> read(String tx) {
    List<String> values = new ArrayList<>();
    ok(get("read_table", "{\"path\":\"" + TABLE + "\"" + in(tx) + "}"))
        .rows()
        .forEach(r -> values.add(r.path("k").asLong() + "=" + r.path("v").asText()));
    return values;
  }

  @BeforeEach
  void createTable() {
    ok(
        post(
            "create",
            "{\"path\":\""
                + TABLE
                + "\",\"type\":\"table\",\"recursive\":true,\"attributes\":{\"schema\":"
                + SCHEMA
                + "}}"));
  }

  @Test
  void aStaticTableIsCreatedWithItsSchema() {
    JsonNode attributes = ok(get("get", "{\"path\":\"" + TABLE + "/@\"}")).json().path("value");
    assertEquals("table", attributes.path("type").asText());
    assertEquals(false, attributes.path("dynamic").asBoolean(true));
    assertEquals(0, attributes.path("row_count").asLong(-1));
    JsonNode schema = attributes.path("schema");
    assertEquals(true, schema.path("$attributes").path("strict").asBoolean(false));
    assertEquals("k", schema.path("$value").path(0).path("name").asText());
    assertEquals("v", schema.path("$value").path(1).path("name").asText());
  }

  @Test
  void writeOutsideATransactionOverwritesAndAppendAppends() {
    ok(write(TABLE, null, "{\"k\":1,\"v\":\"a\"}\n{\"k\":2,\"v\":\"b\"}\n"));
    ok(write("<append=%true>" + TABLE, null, "{\"k\":3,\"v\":\"c\"}\n"));
    assertEquals(List.of("1=a", "2=b", "3=c"), read(null));

    ok(write(TABLE, null, "{\"k\":9,\"v\":\"z\"}\n"));
    assertEquals(List.of("9=z"), read(null), "without append the rows replace the content");
    assertEquals(
        1, ok(get("get", "{\"path\":\"" + TABLE + "/@row_count\"}")).json().path("value").asLong());
  }

  @Test
  void appendsInATransactionAreSeenByItAloneUntilCommit() {
    ok(write(TABLE, null, "{\"k\":0,\"v\":\"old\"}\n"));
    String tx = start("{\"timeout\":60000}");

    ok(write("<append=%true>" + TABLE, tx, "{\"k\":1,\"v\":\"a\"}\n"));
    ok(write("<append=%true>" + TABLE, tx, "{\"k\":2,\"v\":\"b\"}\n"));
    setAttribute(tx, "ytstream_batches", "{\"q\":2}");

    assertEquals(List.of("0=old", "1=a", "2=b"), read(tx));
    assertEquals(List.of("0=old"), read(null));
    assertEquals(
        500,
        get("get", "{\"path\":\"" + TABLE + "/@ytstream_batches\"}").errorCode(),
        "the attribute is not set outside before the commit");
    assertEquals(
        2,
        ok(get("get", "{\"path\":\"" + TABLE + "/@ytstream_batches\"" + in(tx) + "}"))
            .json()
            .path("value")
            .path("q")
            .asLong());

    ok(post("commit_transaction", "{\"transaction_id\":\"" + tx + "\"}"));

    assertEquals(List.of("0=old", "1=a", "2=b"), read(null));
    assertEquals(
        2,
        ok(get("get", "{\"path\":\"" + TABLE + "/@ytstream_batches\"}"))
            .json()
            .path("value")
            .path("q")
            .asLong());
  }

  @Test
  void anAbortDropsTheRowsAndTheAttribute() {
    String tx = start("{\"timeout\":60000}");
    ok(write("<append=%true>" + TABLE, tx, "{\"k\":1,\"v\":\"a\"}\n"));
    setAttribute(tx, "last_batch", "3");

    ok(post("abort_transaction", "{\"transaction_id\":\"" + tx + "\"}"));

    assertEquals(List.of(), read(null));
    assertEquals(500, get("get", "{\"path\":\"" + TABLE + "/@last_batch\"}").errorCode());
    assertEquals(11000, write("<append=%true>" + TABLE, tx, "{\"k\":2,\"v\":\"b\"}\n").errorCode());
  }

  @Test
  void anExpiredTransactionLandsNothing() {
    String tx = start("{\"timeout\":10000}");
    ok(write("<append=%true>" + TABLE, tx, "{\"k\":1,\"v\":\"a\"}\n"));
    setAttribute(tx, "last_batch", "1");

    clock.advance(Duration.ofSeconds(11));

    assertEquals(
        11000, post("commit_transaction", "{\"transaction_id\":\"" + tx + "\"}").errorCode());
    assertEquals(List.of(), read(null));
    assertEquals(500, get("get", "{\"path\":\"" + TABLE + "/@last_batch\"}").errorCode());
  }

  @Test
  void aNestedTransactionsRowsReachTheParentAtItsCommit() {
    String outer = start("{\"timeout\":60000}");
    String inner = start("{\"timeout\":60000,\"transaction_id\":\"" + outer + "\"}");
    ok(write("<append=%true>" + TABLE, inner, "{\"k\":1,\"v\":\"a\"}\n"));
    assertEquals(List.of(), read(outer), "the parent does not see the child's rows yet");

    ok(post("commit_transaction", "{\"transaction_id\":\"" + inner + "\"}"));
    assertEquals(List.of("1=a"), read(outer));
    assertEquals(List.of(), read(null));

    ok(post("commit_transaction", "{\"transaction_id\":\"" + outer + "\"}"));
    assertEquals(List.of("1=a"), read(null));
  }

  @Test
  void aRowOutsideTheSchemaFailsTheWholeWrite() {
    String tx = start("{\"timeout\":60000}");
    Reply refused =
        write("<append=%true>" + TABLE, tx, "{\"k\":1,\"v\":\"a\"}\n{\"k\":2,\"other\":1}\n");
    assertNotEquals(200, refused.status());
    // SchemaViolation (yt/yt/client/table_client/public.h; table_consumer.cpp: "No column").
    assertTrue(refused.allCodes().contains(307), refused.text());
    ok(post("commit_transaction", "{\"transaction_id\":\"" + tx + "\"}"));
    assertEquals(List.of(), read(null));
  }

  @Test
  void writeTableToADynamicTableIsRefused() {
    ok(
        post(
            "create",
            "{\"path\":\"//home/st/dyn\",\"type\":\"table\",\"attributes\":{\"dynamic\":true,"
                + "\"schema\":[{\"name\":\"v\",\"type\":\"string\"}]}}"));
    Reply refused = write("//home/st/dyn", null, "{\"v\":\"a\"}\n");
    assertEquals(400, refused.status(), refused.text());
    assertTrue(refused.text().contains("insert_rows"), refused.text());
  }

  @Test
  void theClustersPortSeesWhatHttpStagedInTheSameTransaction() {
    String tx = start("{\"timeout\":60000}");
    ok(write("<append=%true>" + TABLE, tx, "{\"k\":1,\"v\":\"a\"}\n"));
    MasterTransaction attached =
        yt.emulator().cluster().staticTableAppends().attach(new TransactionId(tx));
    attached.append(YPath.of(TABLE), List.of(Row.of("k", 2L, "v", "b")).iterator());
    attached.setAttribute(YPath.of(TABLE), "last_batch", 2L);

    ok(post("commit_transaction", "{\"transaction_id\":\"" + tx + "\"}"));

    assertEquals(List.of("1=a", "2=b"), read(null));
    assertEquals(
        Optional.of(2L),
        yt.emulator().cluster().staticTableAppends().attribute(YPath.of(TABLE), "last_batch"));
    assertEquals(
        Map.of("last_batch", 2L),
        yt.emulator().cluster().userAttributes(YPath.of(TABLE), Optional.empty()));
  }

  private void setAttribute(String tx, String name, String value) {
    ok(
        http.send(
            "PUT",
            yt.emulator().url() + "/api/v4/set",
            "{\"path\":\"" + TABLE + "/@" + name + "\"" + in(tx) + "}",
            null,
            value.getBytes(java.nio.charset.StandardCharsets.UTF_8),
            "\"json\""));
  }
}
