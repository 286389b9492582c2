package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ytstream.emulator.RawHttp.Reply;
import io.ytstream.inmemory.ManualClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code pull_queue} as the driver serves it ({@code yt/yt/client/driver/queue_commands.cpp},
 * {@code TPullQueueCommand}): no consumer, an explicit offset, a negative one refused, a trimmed
 * one read from the first row left; and {@code $timestamp} is the row's commit timestamp in the
 * hybrid form, Unix seconds above a 30-bit counter ({@code
 * yt/yt/server/node/tablet_node/ordered_dynamic_store.cpp}, {@code WriteRow}; {@code
 * yt/yt/client/transaction_client/public.h}).
 */
class PullQueueConformanceTest {

  private static final long START_MILLIS = 1_704_067_200_500L;

  private final ManualClock clock = new ManualClock(START_MILLIS);

  @RegisterExtension
  final YtEmulatorExtension yt =
      new YtEmulatorExtension(EmulatorOptions.defaults().withClock(clock));

  private final RawHttp http = new RawHttp(null);

  private void queue(String path) {
    String base = yt.emulator().url();
    Reply created =
        http.command(
            "POST",
            base,
            "create",
            "{\"path\":\""
                + path
                + "\",\"type\":\"table\",\"recursive\":true,\"attributes\":{\"dynamic\":true,"
                + "\"schema\":[{\"name\":\"value\",\"type\":\"string\"},"
                + "{\"name\":\"$timestamp\",\"type\":\"uint64\"}]}}");
    assertEquals(200, created.status(), created.text());
    http.command("POST", base, "mount_table", "{\"path\":\"" + path + "\"}");
  }

  private void insert(String path, int from, int count) {
    StringBuilder rows = new StringBuilder();
    for (int i = from; i < from + count; i++) {
      rows.append("{\"value\":\"v").append(i).append("\"}\n");
    }
    Reply reply =
        http.put(
            yt.emulator().url(), "insert_rows", "{\"path\":\"" + path + "\"}", rows.toString());
    assertEquals(200, reply.status(), reply.text());
  }

  private Reply pullQueue(String path, long offset) {
    return http.command(
        "GET",
        yt.emulator().url(),
        "pull_queue",
        "{\"queue_path\":\""
            + path
            + "\",\"partition_index\":0,\"offset\":"
            + offset
            + ",\"max_row_count\":100}");
  }

  @Test
  void readsWithoutAConsumerFromTheOffsetOrTheFirstRowLeft() {
    queue("//q");
    insert("//q", 0, 5);

    Reply all = pullQueue("//q", 1);
    assertEquals(200, all.status(), all.text());
    List<String> values = new ArrayList<>();
    all.rows().forEach(r -> values.add(r.path("value").asText()));
    assertEquals(List.of("v1", "v2", "v3", "v4"), values);

    http.command(
        "POST",
        yt.emulator().url(),
        "trim_rows",
        "{\"path\":\"//q\",\"tablet_index\":0,\"trimmed_row_count\":3}");
    assertEquals(3, pullQueue("//q", 0).rows().get(0).path("$$row_index").asLong());

    Reply negative = pullQueue("//q", -1);
    assertEquals(400, negative.status(), negative.text());
    assertTrue(negative.text().contains("negative offset"), negative.text());
  }

  @Test
  void timestampIsTheCommitTimestampWithUnixSecondsAboveThirtyBits() {
    queue("//q");
    insert("//q", 0, 1);
    clock.advanceMillis(2_000);
    insert("//q", 1, 1);

    List<JsonNode> rows = pullQueue("//q", 0).rows();
    long first = rows.get(0).path("$$timestamp").asLong();
    long second = rows.get(1).path("$$timestamp").asLong();
    assertEquals(START_MILLIS / 1000, first >>> 30, Long.toHexString(first));
    assertEquals(START_MILLIS / 1000 + 2, second >>> 30, Long.toHexString(second));
    assertTrue(second > first);
  }
}
