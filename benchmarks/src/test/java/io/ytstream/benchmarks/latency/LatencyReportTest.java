package io.ytstream.benchmarks.latency;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class LatencyReportTest {

  /** 100 rows with latencies {@code ms}, 2 ms, ..., 100 {@code ms}; no boundary gaps. */
  private static LatencyStats scaled(long ms) {
    return new LatencyStats(100, LongStream.rangeClosed(1, 100).map(i -> i * ms * 1000).toArray());
  }

  private static String table(Map<Variant, LatencyStats> stats) {
    LatencyBench.Group g = new LatencyBench.Group("inmemory", 1000, 5, 32, "0", "0", stats);
    return LatencyReport.table(List.of(g), LatencyOptions.parse());
  }

  @Test
  void eachWriterIsHeldAgainstTheBareSourceWithTheSameWriter() {
    Map<Variant, LatencyStats> stats = new LinkedHashMap<>();
    stats.put(Variant.RT_EXACTLY_ONCE, scaled(3));
    stats.put(Variant.RT_APPEND, scaled(1));
    stats.put(Variant.BARE_RT, scaled(1));
    stats.put(Variant.BARE_RT_EXACTLY_ONCE, scaled(2));

    String table = table(stats);

    assertTrue(table.contains("| rt-exactly-once p50 / bare-rt-exactly-once p50 | 1.50 |"), table);
    assertTrue(table.contains("| rt-append p50 / bare-rt p50 | 1.00 |"), table);
    assertFalse(table.contains("rt-exactly-once p50 / bare-rt p50"), table);
  }

  @Test
  void withoutTheExactlyOnceLimitTheAppendLimitIsUsedAndNamed() {
    Map<Variant, LatencyStats> stats = new LinkedHashMap<>();
    stats.put(Variant.RT_EXACTLY_ONCE, scaled(3));
    stats.put(Variant.BARE_RT, scaled(1));

    String table = table(stats);

    assertTrue(table.contains("| rt-exactly-once p50 / bare-rt p50 | 3.00 |"), table);
    assertTrue(
        table.contains("| rt-exactly-once p99 / bare-rt p99 | 3.00 |  | ≤ 1.50 | not met |"),
        table);
  }

  @Test
  void theControlIsHeldAgainstTheLimitItRepeats() {
    Map<Variant, LatencyStats> stats = new LinkedHashMap<>();
    stats.put(Variant.BARE_RT, scaled(2));
    stats.put(Variant.BARE_RT_CONTROL, scaled(3));

    String table = table(stats);

    assertTrue(
        table.contains("| bare-rt-control p50 / bare-rt p50 | 1.50 |  | ≤ 2.00 | met |"), table);
    assertTrue(
        table.contains(
            "| bare-rt-control max / bare-rt max (batch-boundary gap) | 1.50 |  | ≤ 1.00 |"
                + " not met |"),
        table);
  }
}
