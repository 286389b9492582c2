package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ytstream.emulator.RawHttp.Reply;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pulls as a tablet node answers them ({@code yt/yt/server/node/query_agent/query_service.cpp}):
 * short at the end of each store, not only at a cap; below the trimmed row count from the first row
 * left; {@code $timestamp} and {@code $cumulative_data_weight} only when the queue's schema
 * declares them.
 */
class PullConformanceTest {

  @RegisterExtension
  final YtEmulatorExtension yt =
      new YtEmulatorExtension(EmulatorOptions.defaults().withRowsPerStore(3));

  private final RawHttp http = new RawHttp(null);

  private void queue(String path, String extraColumns) {
    String base = yt.emulator().url();
    Reply created =
        http.command(
            "POST",
            base,
            "create",
            "{\"path\":\""
                + path
                + "\",\"type\":\"table\",\"recursive\":true,\"attributes\":{\"dynamic\":true,"
                + "\"schema\":[{\"name\":\"value\",\"type\":\"string\"}"
                + extraColumns
                + "]}}");
    assertEquals(200, created.status(), created.text());
    http.command("POST", base, "mount_table", "{\"path\":\"" + path + "\"}");
    http.command(
        "POST", base, "create", "{\"path\":\"" + path + "_c\",\"type\":\"queue_consumer\"}");
    http.command(
        "POST",
        base,
        "register_queue_consumer",
        "{\"queue_path\":\"" + path + "\",\"consumer_path\":\"" + path + "_c\",\"vital\":false}");
  }

  private void insert(String path, int count) {
    StringBuilder rows = new StringBuilder();
    for (int i = 0; i < count; i++) {
      rows.append("{\"value\":\"v").append(i).append("\"}\n");
    }
    Reply reply =
        http.put(
            yt.emulator().url(), "insert_rows", "{\"path\":\"" + path + "\"}", rows.toString());
    assertEquals(200, reply.status(), reply.text());
  }

  private List<Long> pull(String path, long offset) {
    Reply reply =
        http.command(
            "GET",
            yt.emulator().url(),
            "pull_queue_consumer",
            "{\"consumer_path\":\""
                + path
                + "_c\",\"queue_path\":\""
                + path
                + "\",\"partition_index\":0,\"offset\":"
                + offset
                + ",\"max_row_count\":100}");
    assertEquals(200, reply.status(), reply.text());
    List<Long> indexes = new ArrayList<>();
    reply.rows().forEach(r -> indexes.add(r.path("$$row_index").asLong()));
    return indexes;
  }

  @Test
  void aPullEndsAtTheEndOfAStoreAndOnlyAnEmptyOneMeansNoRowsNow() {
    queue("//q", "");
    insert("//q", 7);

    assertEquals(List.of(0L, 1L, 2L), pull("//q", 0));
    assertEquals(List.of(1L, 2L), pull("//q", 1));
    assertEquals(List.of(3L, 4L, 5L), pull("//q", 3));
    assertEquals(List.of(6L), pull("//q", 6));
    assertEquals(List.of(), pull("//q", 7));
  }

  @Test
  void aPullBelowTheTrimmedRowCountStartsAtTheFirstRowLeft() {
    queue("//q", "");
    insert("//q", 7);
    Reply trim =
        http.command(
            "POST",
            yt.emulator().url(),
            "trim_rows",
            "{\"path\":\"//q\",\"tablet_index\":0,\"trimmed_row_count\":4}");
    assertEquals(200, trim.status(), trim.text());

    assertEquals(List.of(4L, 5L), pull("//q", 0));
  }

  @Test
  void systemColumnsOnlyWhenTheSchemaDeclaresThem() {
    queue("//plain", "");
    queue(
        "//declared",
        ",{\"name\":\"$timestamp\",\"type\":\"uint64\"},"
            + "{\"name\":\"$cumulative_data_weight\",\"type\":\"int64\"}");
    insert("//plain", 1);
    insert("//declared", 1);

    String pull =
        "/api/v4/pull_queue_consumer?consumer_path=%s_c&queue_path=%s&partition_index=0&offset=0";
    Reply plain =
        http.raw("GET", yt.emulator().url() + String.format(pull, "//plain", "//plain"), null);
    assertEquals("{\"$tablet_index\"=0;\"$row_index\"=0;\"value\"=\"v0\";};\n", plain.text());

    Reply declared =
        http.raw(
            "GET", yt.emulator().url() + String.format(pull, "//declared", "//declared"), null);
    Matcher m =
        Pattern.compile(
                "\\{\"\\$tablet_index\"=0;\"\\$row_index\"=0;\"value\"=\"v0\";"
                    + "\"\\$timestamp\"=(\\d+)u;\"\\$cumulative_data_weight\"=(\\d+);\\};\\n")
            .matcher(declared.text());
    assertTrue(
        m.matches(), "uint64 $timestamp and int64 $cumulative_data_weight: " + declared.text());
    JsonNode json =
        http.command(
                "GET",
                yt.emulator().url(),
                "pull_queue_consumer",
                "{\"consumer_path\":\"//declared_c\",\"queue_path\":\"//declared\","
                    + "\"partition_index\":0,\"offset\":0}")
            .rows()
            .get(0);
    assertEquals(Long.parseLong(m.group(1)), json.path("$$timestamp").asLong());
  }
}
