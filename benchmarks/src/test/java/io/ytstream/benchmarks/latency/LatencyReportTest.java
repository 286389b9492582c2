package io.ytstream.benchmarks.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
    Map<Variant, List<LatencyStats>> runs = new LinkedHashMap<>();
    stats.forEach((v, st) -> runs.put(v, List.of(st)));
    return List.of(LatencyBench.Group.of("emulator", 1000, 5, 12, "0", "0", runs));
  }

  @Test
  void eachRealTimeVariantOfOursIsHeldAgainstKafkasWithTheSameWriter() {
    Map<Variant, LatencyStats> stats = new LinkedHashMap<>();
    stats.put(Variant.RT_EXACTLY_ONCE, scaled(3));
    stats.put(Variant.RT_APPEND, scaled(1));
    stats.put(Variant.KAFKA_RT_APPEND, scaled(2));

    String table = LatencyReport.table(groups(stats), LatencyOptions.parse(), "4.2.0");

    assertTrue(
        table.contains("| rt-append ÷ kafka-rt-append | 0.50 | 0.50 | 0.50 | 0.50 |"), table);
    assertTrue(
        table.contains("| rt-exactly-once ÷ kafka-rt-append | 1.50 | 1.50 | 1.50 | 1.50 |"), table);
    assertFalse(table.contains("Each run:"), "one run: the pooled table is the run's");
  }

  @Test
  void theStatefulCountIsHeldAgainstKafkasStatefulCountNotItsAppendAndSetsNoTarget() {
    Map<Variant, LatencyStats> stats = new LinkedHashMap<>();
    stats.put(Variant.RT_COUNT, scaled(3));
    stats.put(Variant.KAFKA_RT_COUNT, scaled(4));
    stats.put(Variant.KAFKA_RT_APPEND, scaled(1));

    String table =
        LatencyReport.table(
            groups(stats),
            LatencyOptions.parse("--variants", "rt-count,kafka-rt-count", "--keys", "10"),
            "4.3.0");

    assertTrue(table.startsWith("Spark 4.3.0, local[4]"), table);
    assertTrue(table.contains("groupBy(id % 10).count()"), table);
    assertTrue(table.contains("| rt-count ÷ kafka-rt-count | 0.75 | 0.75 | 0.75 | 0.75 |"), table);
    assertFalse(table.contains("rt-count ÷ kafka-rt-append"), table);
    assertEquals("", LatencyReport.targets(groups(stats)), "the stateful pair has no target");
  }

  @Test
  void theResultsRowsMarkBothOfOurWritersAgainstKafkas() {
    Map<Variant, LatencyStats> stats = new LinkedHashMap<>();
    stats.put(Variant.RT_APPEND, scaled(3));
    stats.put(Variant.RT_EXACTLY_ONCE, scaled(1));
    stats.put(Variant.KAFKA_RT_APPEND, scaled(2));

    List<String> rows = LatencyReport.targets(groups(stats)).lines().toList();

    assertEquals(4, rows.size(), rows.toString());
    assertTrue(rows.get(0).contains("real-time p50, rt-append"), rows.get(0));
    assertTrue(rows.get(0).contains("| ≤ 0.75 × Kafka's | 1.50× per run"), rows.get(0));
    assertTrue(rows.get(0).endsWith("(150 vs 100 ms, pooled) | **not met** |"), rows.get(0));
    assertTrue(rows.get(1).contains("real-time p99, rt-append"), rows.get(1));
    assertTrue(rows.get(2).contains("real-time p50, rt-exactly-once"), rows.get(2));
    assertTrue(rows.get(2).contains("0.50× per run") && rows.get(2).endsWith("| met |"));
    assertTrue(
        rows.get(3).contains("| ≤ Kafka's | 0.50× per run") && rows.get(3).endsWith("| met |"));
  }

  @Test
  void p50IsMetOnlyAtThreeQuartersOfKafkasAndP99AtKafkas() {
    Map<Variant, LatencyStats> stats = new LinkedHashMap<>();
    stats.put(Variant.RT_APPEND, scaled(8));
    stats.put(Variant.KAFKA_RT_APPEND, scaled(10));

    List<String> rows = LatencyReport.targets(groups(stats)).lines().toList();

    assertTrue(
        rows.get(0).endsWith("| **not met** |"), "0.8 of Kafka's p50 is above 0.75: " + rows);
    assertTrue(rows.get(1).endsWith("| met |"), "0.8 of Kafka's p99 is below it: " + rows);
  }

  @Test
  void severalRunsArePairedByRoundAndEachRunIsListed() {
    Map<Variant, List<LatencyStats>> runs = new LinkedHashMap<>();
    runs.put(Variant.RT_APPEND, List.of(scaled(1), scaled(3), scaled(2)));
    runs.put(Variant.KAFKA_RT_APPEND, List.of(scaled(4), scaled(4), scaled(2)));
    List<LatencyBench.Group> g =
        List.of(LatencyBench.Group.of("emulator", 1000, 5, 60, "0", "0", runs));

    String table = LatencyReport.table(g, LatencyOptions.parse("--repeat", "3"), "4.2.0");
    List<String> rows = LatencyReport.targets(g).lines().toList();

    assertTrue(table.contains("| rt-append | 3 | 100 / 100 | 100 | 198 | 200 |"), table);
    assertTrue(table.contains("| kafka-rt-append | 1 | 100 / 100 | 200 |"), table);
    // Per round: 1/4, 3/4, 2/2.
    assertTrue(rows.get(0).contains("0.75 [0.25–1.00]× per run"), rows.get(0));
    assertTrue(rows.get(0).endsWith("| met |"), "the median of the rounds' ratios decides");
  }

  @Test
  void withoutKafkaThereIsNoTargetRow() {
    Map<Variant, LatencyStats> stats = new LinkedHashMap<>();
    stats.put(Variant.RT_APPEND, scaled(1));
    assertEquals("", LatencyReport.targets(groups(stats)));
  }

  @Test
  void aTargetTheWriterAloneAlreadyMissesIsBoundedByTheControl() {
    Map<Variant, LatencyStats> stats = new LinkedHashMap<>();
    stats.put(Variant.RT_APPEND, scaled(9));
    stats.put(Variant.KAFKA_RT_APPEND, scaled(10));
    stats.put(Variant.FLOOR_APPEND, scaled(8));

    List<String> rows = LatencyReport.targets(groups(stats)).lines().toList();
    String table = LatencyReport.table(groups(stats), LatencyOptions.parse(), "4.2.0");

    assertTrue(
        rows.get(0)
            .endsWith(
                "| **not met**, bounded by the control: the writer alone (floor-append, no source)"
                    + " 400 ms, 0.80× Kafka's; our source's part 50.0 ms; the best reachable ratio"
                    + " with this writer is 0.80×, over the 0.75× |"),
        rows.get(0));
    assertTrue(rows.get(1).endsWith("| met |"), rows.get(1));
    assertTrue(table.contains("| floor-append ÷ kafka-rt-append | 0.80 | 0.80 | 0.80 | 0.80 |"));
    assertTrue(
        table.contains(
            "the variant's less its writer's control's, pooled): rt-append 50.0 ms,"
                + " kafka-rt-append 100 ms."),
        table);
  }

  @Test
  void aTargetTheControlAllowsIsMissedBySourceAlone() {
    Map<Variant, LatencyStats> stats = new LinkedHashMap<>();
    stats.put(Variant.RT_EXACTLY_ONCE, scaled(9));
    stats.put(Variant.KAFKA_RT_APPEND, scaled(10));
    stats.put(Variant.FLOOR_APPEND, scaled(8));
    stats.put(Variant.FLOOR_EXACTLY_ONCE, scaled(5));

    String p50 = LatencyReport.targets(groups(stats)).lines().findFirst().orElseThrow();

    assertTrue(
        p50.endsWith(
            "| **not met**; the control allows it: the writer alone (floor-exactly-once, no"
                + " source) 250 ms, 0.50× Kafka's; our source's part 200 ms |"),
        "each writer is held to its own control: " + p50);
  }
}
