package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.ytstream.emulator.RawHttp.Reply;
import io.ytstream.types.yson.Yson;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How many rows a pull returns, over raw HTTP, as the server's code decides it. Pinned to: {@code
 * yt/yt/client/queue_client/queue_rowset.cpp} ({@code VerifyRowBatchReadOptions}: non-positive
 * options refused with its texts; {@code ComputeRowsToRead}: max(1, min(max_row_count,
 * max_data_weight / data_weight_per_row_hint)); {@code GetStartOffset}); {@code
 * yt/yt/server/node/tablet_node/ordered_dynamic_store.cpp} (rows added while the weight so far is
 * below the limit, so the crossing row is included; a read covers one store; {@code WriteRow}: the
 * running data weight); {@code yt/yt/server/node/query_agent/query_service.cpp} ({@code
 * FetchTableRows}, which {@code pull_queue} and {@code pull_queue_consumer} alike reach); {@code
 * yt/yt/client/table_client/unversioned_row.h} (an {@code any} value weighs its binary YSON's
 * length).
 */
class PullSizingConformanceTest {

  private static final int ROWS_PER_STORE = 4;

  @RegisterExtension
  final YtEmulatorExtension yt =
      new YtEmulatorExtension(EmulatorOptions.defaults().withRowsPerStore(ROWS_PER_STORE));

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

  /** A queue {@code //q} with {@code columns} (JSON schema entries), a consumer {@code //c}. */
  private void queue(String columns) {
    ok(
        post(
            "create",
            "{\"path\":\"//q\",\"type\":\"table\",\"attributes\":{\"dynamic\":true,"
                + "\"schema\":["
                + columns
                + "]}}"));
    ok(post("mount_table", "{\"path\":\"//q\"}"));
    ok(post("create", "{\"path\":\"//c\",\"type\":\"queue_consumer\"}"));
    ok(
        post(
            "register_queue_consumer",
            "{\"queue_path\":\"//q\",\"consumer_path\":\"//c\",\"vital\":false}"));
  }

  private void insert(int count) {
    StringBuilder rows = new StringBuilder();
    for (int i = 0; i < count; i++) {
      rows.append("{\"value\":\"0123456789\"}\n");
    }
    ok(http.put(base(), "insert_rows", "{\"path\":\"//q\"}", rows.toString()));
  }

  private Reply pullConsumer(long offset, String extra) {
    return http.command(
        "GET",
        base(),
        "pull_queue_consumer",
        "{\"consumer_path\":\"//c\",\"queue_path\":\"//q\",\"partition_index\":0,\"offset\":"
            + offset
            + extra
            + "}");
  }

  private Reply pullQueue(long offset, String extra) {
    return http.command(
        "GET",
        base(),
        "pull_queue",
        "{\"queue_path\":\"//q\",\"partition_index\":0,\"offset\":" + offset + extra + "}");
  }

  private static List<Long> rowIndexes(Reply reply) {
    List<Long> indexes = new ArrayList<>();
    ok(reply).rows().forEach(r -> indexes.add(r.path("$$row_index").asLong()));
    return indexes;
  }

  private static long startOffset(Reply reply) {
    return RawHttp.parseJson(reply.header("X-YT-Response-Parameters"))
        .path("start_offset")
        .asLong(-1);
  }

  @Test
  void theHintSizesTheReadAsMaxOfOneAndMinOfCountAndWeightOverHint() {
    queue("{\"name\":\"value\",\"type\":\"string\"}");
    insert(3);

    List<Long> byHint =
        rowIndexes(pullConsumer(0, ",\"max_data_weight\":100,\"data_weight_per_row_hint\":50"));
    List<Long> byCount =
        rowIndexes(
            pullConsumer(
                0, ",\"max_row_count\":1,\"max_data_weight\":100,\"data_weight_per_row_hint\":1"));
    List<Long> atLeastOne =
        rowIndexes(pullQueue(0, ",\"max_data_weight\":10,\"data_weight_per_row_hint\":1000"));

    assertEquals(List.of(0L, 1L), byHint, "100 / 50 = 2 rows");
    assertEquals(List.of(0L), byCount);
    assertEquals(List.of(0L), atLeastOne, "10 / 1000 = 0, at least one");
  }

  @Test
  void nonPositiveSizesAreRefusedWithTheServersTexts() {
    queue("{\"name\":\"value\",\"type\":\"string\"}");

    Reply hint = pullConsumer(0, ",\"data_weight_per_row_hint\":0");
    Reply count = pullQueue(0, ",\"max_row_count\":0");
    Reply weight = pullQueue(0, ",\"max_data_weight\":-1");

    assertEquals("DataWeightPerRowHint is non-positive", hint.json().path("message").asText());
    assertEquals("MaxRowCount is non-positive", count.json().path("message").asText());
    assertEquals("MaxDataWeight is non-positive", weight.json().path("message").asText());
  }

  @Test
  void theRowThatCrossesMaxDataWeightIsIncluded() {
    queue("{\"name\":\"value\",\"type\":\"string\"}");
    insert(3);

    // A row weighs 1 + $tablet_index 8 + $row_index 8 + value 10 = 27 (no $timestamp column).
    List<Long> crossing = rowIndexes(pullConsumer(0, ",\"max_data_weight\":28"));
    List<Long> exact = rowIndexes(pullQueue(0, ",\"max_data_weight\":27"));

    assertEquals(List.of(0L, 1L), crossing, "27 < 28: the second row goes and crosses it");
    assertEquals(List.of(0L), exact, "27 is not below 27: the read ends");
  }

  @Test
  void pullQueueEndsAtAStoresEndAsPullQueueConsumerDoes() {
    queue("{\"name\":\"value\",\"type\":\"string\"}");
    insert(6);

    assertEquals(List.of(2L, 3L), rowIndexes(pullQueue(2, "")));
    assertEquals(List.of(2L, 3L), rowIndexes(pullConsumer(2, "")));
    assertEquals(List.of(4L, 5L), rowIndexes(pullQueue(4, "")));
  }

  @Test
  void theAnswerCarriesStartOffsetTheFirstRowLeftAfterATrim() {
    queue("{\"name\":\"value\",\"type\":\"string\"}");
    insert(3);
    ok(post("trim_rows", "{\"path\":\"//q\",\"tablet_index\":0,\"trimmed_row_count\":2}"));

    Reply trimmed = pullConsumer(0, "");
    Reply fromQueue = pullQueue(2, "");
    Reply empty = pullQueue(3, "");

    assertEquals(List.of(2L), rowIndexes(trimmed));
    assertEquals(2, startOffset(trimmed));
    assertEquals(2, startOffset(fromQueue));
    assertEquals(List.of(), rowIndexes(empty));
    assertEquals(3, startOffset(empty));
  }

  @Test
  void anAnyValueWeighsTheLengthOfItsBinaryYson() {
    queue(
        "{\"name\":\"value\",\"type\":\"any\"},"
            + "{\"name\":\"$cumulative_data_weight\",\"type\":\"int64\"}");
    ok(
        http.put(
            base(),
            "insert_rows",
            "{\"path\":\"//q\"}",
            "{\"value\":{\"k\":[1,\"ab\"]}}\n{\"value\":\"abc\"}\n"));

    List<JsonNode> rows = ok(pullConsumer(0, "")).rows();

    long map = Yson.toBinary(Map.of("k", List.of(1L, "ab"))).length;
    long text = Yson.toBinary("abc").length;
    // 1 + the value + 8 for $cumulative_data_weight itself.
    assertEquals(1 + map + 8, rows.get(0).path("$$cumulative_data_weight").asLong());
    assertEquals(1 + map + 8 + 1 + text + 8, rows.get(1).path("$$cumulative_data_weight").asLong());
  }

  @Test
  void withoutSizesAPullReadsAtMostTheDefaultThousandRows() {
    try (YtEmulator oneStore = YtEmulator.start(EmulatorOptions.defaults())) {
      String url = oneStore.url();
      ok(
          http.command(
              "POST",
              url,
              "create",
              "{\"path\":\"//q\",\"type\":\"table\",\"attributes\":{\"dynamic\":true,"
                  + "\"schema\":[{\"name\":\"value\",\"type\":\"string\"}]}}"));
      ok(http.command("POST", url, "mount_table", "{\"path\":\"//q\"}"));
      StringBuilder rows = new StringBuilder();
      for (int i = 0; i < 1001; i++) {
        rows.append("{\"value\":\"v\"}\n");
      }
      ok(http.put(url, "insert_rows", "{\"path\":\"//q\"}", rows.toString()));

      Reply pulled =
          http.command(
              "GET",
              url,
              "pull_queue",
              "{\"queue_path\":\"//q\",\"partition_index\":0,\"offset\":0}");

      // TQueueRowBatchReadOptions: MaxRowCount 1000 and MaxDataWeight 16 MiB unless given.
      assertEquals(1000, rowIndexes(pulled).size());
    }
  }
}
