package io.ytstream.ytsaurus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.ports.MasterTransaction;
import io.ytstream.ports.Row;
import io.ytstream.ports.contract.Columns;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How {@link HttpStaticTableAppends} sends rows: in chunks, each in a master transaction nested in
 * the caller's ({@code yt/python/yt/wrapper/heavy_commands.py}, {@code WriteRequestRetrier}), so
 * that a chunk whose answer was lost is aborted and sent again without doubling rows.
 */
class HttpStaticTableAppendsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOKEN = "static-table-token";

  private static JsonNode parameters(ScriptedProxy.Received received) throws IOException {
    return JSON.readTree(received.parameters());
  }

  private static List<Row> rows(int count) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      rows.add(Row.of("k", (long) i, "v", "value-" + i));
    }
    return rows;
  }

  @Test
  void aChunkWhoseAnswerWasLostIsSentAgainInAFreshNestedTransaction() throws IOException {
    try (ScriptedProxy proxy = new ScriptedProxy()) {
      proxy
          .then(ScriptedProxy.ok("{\"transaction_id\":\"1-1-10001-1\"}"))
          .then(
              ScriptedProxy.ok(
                  "{\"value\":[{\"name\":\"k\",\"type\":\"int64\"},"
                      + "{\"name\":\"v\",\"type\":\"string\"}]}"))
          .then(ScriptedProxy.ok("{\"transaction_id\":\"2-1-10004-2\"}"))
          .then(ScriptedProxy.drop())
          .then(ScriptedProxy.ok("{}"))
          .then(ScriptedProxy.ok("{\"transaction_id\":\"3-1-10004-3\"}"))
          .then(ScriptedProxy.ok("{}"))
          .then(ScriptedProxy.ok("{}"));
      try (YtsaurusCluster cluster = YtsaurusCluster.connect(proxy.config(TOKEN))) {
        MasterTransaction tx = cluster.staticTableAppends().start(Duration.ofSeconds(60));
        tx.append(YPath.of("//home/t"), rows(3).iterator());
      }

      List<ScriptedProxy.Received> sent = proxy.received();
      List<String> commands = new ArrayList<>();
      sent.forEach(r -> commands.add(r.path().substring(r.path().lastIndexOf('/') + 1)));
      assertEquals(
          List.of(
              "start_transaction",
              "get",
              "start_transaction",
              "write_table",
              "abort_transaction",
              "start_transaction",
              "write_table",
              "commit_transaction"),
          commands);
      assertEquals("master", parameters(sent.get(0)).path("type").asText());
      assertEquals(60_000, parameters(sent.get(0)).path("timeout").asLong());
      for (int nestedStart : List.of(2, 5)) {
        assertEquals(
            "1-1-10001-1",
            parameters(sent.get(nestedStart)).path("transaction_id").asText(),
            "each chunk's transaction is nested in the caller's");
      }
      assertEquals("2-1-10004-2", parameters(sent.get(4)).path("transaction_id").asText());
      JsonNode write = parameters(sent.get(6));
      assertEquals("<append=%true>//home/t", write.path("path").asText());
      assertEquals("3-1-10004-3", write.path("transaction_id").asText());
      assertArrayEquals(sent.get(3).body(), sent.get(6).body(), "the same chunk, sent again");
      assertEquals("3-1-10004-3", parameters(sent.get(7)).path("transaction_id").asText());
      assertTrue(
          sent.get(6).header("X-YT-Input-Format").contains("yson"),
          "rows go as binary YSON: " + sent.get(6).header("X-YT-Input-Format"));
    }
  }

  @Test
  void manyRowsGoInSeveralChunksAndLandInOrderAtTheCommit() {
    try (EmulatorClusterFixture fixture = new EmulatorClusterFixture()) {
      YPath table = fixture.root().child("chunked");
      fixture.createStaticTable(
          table, List.of(Columns.value("k", "int64"), Columns.value("v", "string")));
      YtEmulator emulator = fixture.emulator();
      HttpStaticTableAppends appends =
          new HttpStaticTableAppends((YtsaurusCluster) fixture.cluster(), 1024);
      emulator.requestCounts().reset();

      MasterTransaction tx = appends.start(Duration.ofSeconds(60));
      tx.append(table, rows(2_000).iterator());
      tx.setAttribute(table, "ytstream_batches", Map.of("q", 4L));

      assertEquals(List.of(), appends.readAll(table), "nothing lands before the commit");
      tx.commit();

      long writes = 0;
      for (int proxy = 0; proxy < emulator.proxyUrls().size(); proxy++) {
        writes += emulator.requestCounts().count(proxy, "write_table");
      }
      assertTrue(writes > 10, "2,000 rows in chunks of about 1 KiB: " + writes + " write_table");
      assertEquals(rows(2_000), appends.readAll(table));
      assertEquals(Map.of("q", 4L), appends.attribute(table, "ytstream_batches").orElseThrow());
    }
  }
}
