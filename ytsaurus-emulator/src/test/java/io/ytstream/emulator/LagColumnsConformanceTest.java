package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.ytstream.emulator.RawHttp.Reply;
import io.ytstream.inmemory.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The values of the lag columns as a tablet node writes them, which the source's lag metrics depend
 * on. {@code $cumulative_data_weight} is the partition's data weight up to and including the row
 * ({@code yt/yt/server/node/tablet_node/ordered_dynamic_store.cpp}, {@code WriteRow}: the tablet's
 * running sum after adding the row), where a row weighs 1 plus its values ({@code
 * yt/yt/client/table_client/unversioned_row.cpp}, {@code GetDataWeight}: a string its length, a
 * 64-bit value 8), {@code $timestamp} and the column itself included. {@code $timestamp} is the
 * commit timestamp: Unix seconds above a 30-bit counter ({@code
 * yt/yt/client/transaction_client/public.h}, {@code TimestampCounterWidth}).
 */
class LagColumnsConformanceTest {

  private final ManualClock clock = new ManualClock();

  @RegisterExtension
  final YtEmulatorExtension yt =
      new YtEmulatorExtension(EmulatorOptions.defaults().withClock(clock));

  private final RawHttp http = new RawHttp(null);

  private void insert(String value) {
    Reply reply =
        http.put(
            yt.emulator().url(),
            "insert_rows",
            "{\"path\":\"//q\"}",
            "{\"value\":\"" + value + "\"}\n");
    assertEquals(200, reply.status(), reply.text());
  }

  @Test
  void cumulativeWeightCountsEachRowWithItsSystemColumnsAndTimestampHoldsSeconds() {
    String base = yt.emulator().url();
    Reply created =
        http.command(
            "POST",
            base,
            "create",
            "{\"path\":\"//q\",\"type\":\"table\",\"attributes\":{\"dynamic\":true,"
                + "\"schema\":[{\"name\":\"value\",\"type\":\"string\"},"
                + "{\"name\":\"$timestamp\",\"type\":\"uint64\"},"
                + "{\"name\":\"$cumulative_data_weight\",\"type\":\"int64\"}]}}");
    assertEquals(200, created.status(), created.text());
    http.command("POST", base, "mount_table", "{\"path\":\"//q\"}");
    http.command("POST", base, "create", "{\"path\":\"//c\",\"type\":\"queue_consumer\"}");
    http.command(
        "POST",
        base,
        "register_queue_consumer",
        "{\"queue_path\":\"//q\",\"consumer_path\":\"//c\",\"vital\":false}");
    long startSecond = clock.nowMillis() / 1000;
    insert("v0");
    clock.advance(Duration.ofSeconds(5));
    insert("abcdef");

    List<JsonNode> rows =
        http.command(
                "GET",
                base,
                "pull_queue_consumer",
                "{\"consumer_path\":\"//c\",\"queue_path\":\"//q\",\"partition_index\":0,"
                    + "\"offset\":0}")
            .rows();

    long first = 1 + 2 + 8 + 8;
    long second = 1 + 6 + 8 + 8;
    assertEquals(first, rows.get(0).path("$$cumulative_data_weight").asLong());
    assertEquals(first + second, rows.get(1).path("$$cumulative_data_weight").asLong());
    assertEquals(startSecond, rows.get(0).path("$$timestamp").asLong() >>> 30);
    assertEquals(startSecond + 5, rows.get(1).path("$$timestamp").asLong() >>> 30);
  }

  /**
   * The running sum is the tablet's and only grows ({@code
   * yt/yt/server/node/tablet_node/tablet.cpp}, {@code IncreaseCumulativeDataWeight}; trimming sets
   * the trimmed row count alone): rows left after a trim keep their values and a later row goes on
   * from the total. A source that caps batches by bytes remembers a row's value across trims.
   */
  @Test
  void trimmingKeepsTheRunningSum() {
    String base = yt.emulator().url();
    Reply created =
        http.command(
            "POST",
            base,
            "create",
            "{\"path\":\"//q\",\"type\":\"table\",\"attributes\":{\"dynamic\":true,"
                + "\"schema\":[{\"name\":\"value\",\"type\":\"string\"},"
                + "{\"name\":\"$cumulative_data_weight\",\"type\":\"int64\"}]}}");
    assertEquals(200, created.status(), created.text());
    http.command("POST", base, "mount_table", "{\"path\":\"//q\"}");
    insert("v0");
    insert("v1");
    Reply trimmed =
        http.command(
            "POST",
            base,
            "trim_rows",
            "{\"path\":\"//q\",\"tablet_index\":0,\"trimmed_row_count\":1}");
    assertEquals(200, trimmed.status(), trimmed.text());
    insert("v2");

    List<JsonNode> rows =
        http.command(
                "GET",
                base,
                "pull_queue",
                "{\"queue_path\":\"//q\",\"partition_index\":0,\"offset\":0}")
            .rows();

    long row = 1 + 2 + 8;
    assertEquals(2, rows.size(), rows.toString());
    assertEquals(1, rows.get(0).path("$$row_index").asLong());
    assertEquals(2 * row, rows.get(0).path("$$cumulative_data_weight").asLong());
    assertEquals(3 * row, rows.get(1).path("$$cumulative_data_weight").asLong());
  }
}
