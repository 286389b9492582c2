package io.ytstream.benchmarks.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class LatencyReportTest {

  /** 100 rows with latencies {@code ms}, 2 {@code ms}, ..., 100 {@code ms}. */
  private static LatencyStats scaled(long ms) {
    return new LatencyStats(100, LongStream.rangeClosed(1, 100).map(i -> i * ms * 1000).toArray());
  }

  private static List<LatencyBench.Group> groups(Map<Variant, LatencyStats> stats) {
    return List.of(new LatencyBench.Group("emulator", 1000, 5, 12, "0", "0", stats));
  }

  @Test
  void eachRealTimeVariantOfOursIsHeldAgainstKafkasWithTheSameWriter() {
    Map<Variant, LatencyStats> stats = new LinkedHashMap<>();
    stats.put(Variant.RT_EXACTLY_ONCE, scaled(3));
    stats.put(Variant.RT_APPEND, scaled(1));
    stats.put(Variant.KAFKA_RT_APPEND, scaled(2));

    String table = LatencyReport.table(groups(stats), LatencyOptions.parse());

    assertTrue(table.contains("| rt-append ÷ kafka-rt-append | 0.50 | 0.50 |"), table);
    assertTrue(table.contains("| rt-exactly-once ÷ kafka-rt-append | 1.50 | 1.50 |"), table);
  }

  @Test
  void theResultsRowsMarkOurAppendVariantAgainstKafkas() {
    Map<Variant, LatencyStats> stats = new LinkedHashMap<>();
    stats.put(Variant.RT_APPEND, scaled(3));
    stats.put(Variant.KAFKA_RT_APPEND, scaled(2));

    List<String> rows = LatencyReport.targets(groups(stats)).lines().toList();

    assertEquals(2, rows.size(), rows.toString());
    assertTrue(rows.get(0).contains("real-time p50"), rows.get(0));
    assertTrue(rows.get(0).contains("1.50× (150 vs 100 ms) | **not met** |"), rows.get(0));
    assertTrue(rows.get(1).contains("real-time p99"), rows.get(1));
    stats.put(Variant.RT_APPEND, scaled(1));
    assertTrue(
        LatencyReport.targets(groups(stats)).lines().allMatch(l -> l.endsWith("| met |")),
        "at or below Kafka's is met");
  }

  @Test
  void withoutKafkaThereIsNoTargetRow() {
    Map<Variant, LatencyStats> stats = new LinkedHashMap<>();
    stats.put(Variant.RT_APPEND, scaled(1));
    assertEquals("", LatencyReport.targets(groups(stats)));
  }
}
