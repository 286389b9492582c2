package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ytstream.emulator.RawHttp.Reply;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --state-dir}: what was written survives a restart; the command line parses. */
class EmulatorStateDirTest {

  private final RawHttp http = new RawHttp(null);

  private static Reply ok(Reply reply) {
    assertEquals(200, reply.status(), reply.text());
    return reply;
  }

  @Test
  void staticTableRowsAndAttributesWrittenInAMasterTransactionSurviveARestart(@TempDir Path state)
      throws Exception {
    try (YtEmulator first = YtEmulator.start(EmulatorOptions.defaults().withStateDir(state))) {
      String base = first.url();
      ok(
          http.command(
              "POST",
              base,
              "create",
              "{\"path\":\"//home/s\",\"type\":\"table\",\"recursive\":true,\"attributes\":"
                  + "{\"schema\":[{\"name\":\"v\",\"type\":\"string\"}]}}"));
      String tx =
          ok(http.command("POST", base, "start_transaction", "{\"timeout\":60000}"))
              .json()
              .path("transaction_id")
              .asText();
      ok(
          http.put(
              base,
              "write_table",
              "{\"path\":\"<append=%true>//home/s\",\"transaction_id\":\"" + tx + "\"}",
              "{\"v\":\"a\"}\n{\"v\":\"b\"}\n"));
      ok(
          http.send(
              "PUT",
              base + "/api/v4/set",
              "{\"path\":\"//home/s/@last_batch\",\"transaction_id\":\"" + tx + "\"}",
              null,
              "7".getBytes(StandardCharsets.UTF_8),
              "\"json\""));
      ok(http.command("POST", base, "commit_transaction", "{\"transaction_id\":\"" + tx + "\"}"));
      String aborted =
          ok(http.command("POST", base, "start_transaction", "{\"timeout\":60000}"))
              .json()
              .path("transaction_id")
              .asText();
      ok(
          http.put(
              base,
              "write_table",
              "{\"path\":\"<append=%true>//home/s\",\"transaction_id\":\"" + aborted + "\"}",
              "{\"v\":\"dropped\"}\n"));
      ok(
          http.command(
              "POST", base, "abort_transaction", "{\"transaction_id\":\"" + aborted + "\"}"));
    }
    try (YtEmulator second = YtEmulator.start(EmulatorOptions.defaults().withStateDir(state))) {
      String base = second.url();
      List<JsonNode> rows =
          ok(http.command("GET", base, "read_table", "{\"path\":\"//home/s\"}")).rows();
      assertEquals(List.of("a", "b"), rows.stream().map(r -> r.path("v").asText()).toList());
      assertEquals(
          7,
          ok(http.command("GET", base, "get", "{\"path\":\"//home/s/@last_batch\"}"))
              .json()
              .path("value")
              .asLong());
    }
  }

  @Test
  void tablesRowsOffsetsTrimsAndFilesSurviveARestart(@TempDir Path state) throws Exception {
    try (YtEmulator first = YtEmulator.start(EmulatorOptions.defaults().withStateDir(state))) {
      String base = first.url();
      ok(
          http.command(
              "POST",
              base,
              "create",
              "{\"path\":\"//home/q\",\"type\":\"table\",\"recursive\":true,\"attributes\":"
                  + "{\"dynamic\":true,\"schema\":[{\"name\":\"value\",\"type\":\"string\"}]}}"));
      ok(http.command("POST", base, "mount_table", "{\"path\":\"//home/q\"}"));
      ok(
          http.command(
              "POST", base, "create", "{\"path\":\"//home/c\",\"type\":\"queue_consumer\"}"));
      ok(
          http.command(
              "POST",
              base,
              "register_queue_consumer",
              "{\"queue_path\":\"//home/q\",\"consumer_path\":\"//home/c\",\"vital\":true}"));
      ok(http.put(base, "insert_rows", "{\"path\":\"//home/q\"}", "{\"value\":\"a\"}\n"));
      String tx =
          ok(http.command("POST", base, "start_transaction", "{\"type\":\"tablet\"}"))
              .json()
              .path("transaction_id")
              .asText();
      ok(
          http.put(
              base,
              "insert_rows",
              "{\"path\":\"//home/q\",\"transaction_id\":\"" + tx + "\"}",
              "{\"value\":\"ü\"}\n{\"value\":\"c\"}\n"));
      ok(
          http.command(
              "POST",
              base,
              "advance_queue_consumer",
              "{\"consumer_path\":\"//home/c\",\"queue_path\":\"//home/q\",\"partition_index\":0,"
                  + "\"old_offset\":0,\"new_offset\":2,\"transaction_id\":\""
                  + tx
                  + "\"}"));
      ok(http.command("POST", base, "commit_transaction", "{\"transaction_id\":\"" + tx + "\"}"));
      ok(
          http.command(
              "POST",
              base,
              "trim_rows",
              "{\"path\":\"//home/q\",\"tablet_index\":0,\"trimmed_row_count\":1}"));
      ok(http.command("POST", base, "create", "{\"path\":\"//home/f\",\"type\":\"file\"}"));
      ok(
          http.send(
              "PUT",
              base + "/api/v4/write_file",
              "{\"path\":\"//home/f\"}",
              null,
              "checkpoint".getBytes(StandardCharsets.UTF_8)));
    }
    assertTrue(Files.size(state.resolve(Journal.FILE_NAME)) > 0);

    try (YtEmulator second = YtEmulator.start(EmulatorOptions.defaults().withStateDir(state))) {
      String base = second.url();
      List<JsonNode> rows =
          ok(http.command(
                  "GET",
                  base,
                  "pull_queue_consumer",
                  "{\"consumer_path\":\"//home/c\",\"queue_path\":\"//home/q\","
                      + "\"partition_index\":0,\"offset\":0}"))
              .rows();
      List<JsonNode> offsets =
          ok(http.command(
                  "GET",
                  base,
                  "select_rows",
                  "{\"query\":\"[offset] from [//home/c] where partition_index = 0\"}"))
              .rows();
      Reply file = ok(http.command("GET", base, "read_file", "{\"path\":\"//home/f\"}"));

      assertEquals(2, rows.size(), "row 0 was trimmed");
      assertEquals(1, rows.get(0).path("$$row_index").asLong());
      assertEquals("ü", rows.get(0).path("value").asText());
      assertEquals(2, offsets.get(0).path("offset").asLong());
      assertEquals("checkpoint", file.text());
    }
  }

  @Test
  void commandLineOptions() {
    EmulatorOptions options =
        YtEmulatorMain.parse(
            new String[] {
              "--port", "0", "--token", "t", "--state-dir", "/tmp/x", "--proxies", "3"
            });

    assertEquals(0, options.port());
    assertEquals(Optional.of("t"), options.token());
    assertEquals(Optional.of(Path.of("/tmp/x")), options.stateDir());
    assertEquals(3, options.proxyCount());
    assertEquals(8000, YtEmulatorMain.parse(new String[0]).port());
    assertTrue(!options.toString().contains("=t,"), "the token is not shown: " + options);
    assertThrows(IllegalArgumentException.class, () -> YtEmulatorMain.parse(new String[] {"--x"}));
    assertThrows(
        IllegalArgumentException.class, () -> YtEmulatorMain.parse(new String[] {"--port", "a"}));
  }
}
