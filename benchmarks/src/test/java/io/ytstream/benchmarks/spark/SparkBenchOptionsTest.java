package io.ytstream.benchmarks.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

class SparkBenchOptionsTest {

  @Test
  void defaultsAreTheFullSizes() {
    SparkBenchOptions o = SparkBenchOptions.parse();
    assertEquals(2_000_000, o.rows());
    assertEquals(5_000_000, o.backlogRows());
    assertEquals("1g", o.backlogHeap());
    assertEquals(Set.of("read-path", "modes", "batch-overhead", "memory"), o.benches());
  }

  @Test
  void benchesChooseHarnessesByName() {
    SparkBenchOptions o = SparkBenchOptions.parse("--benches", "memory, read-path");
    assertEquals(Set.of("read-path", "memory"), o.benches());
    assertTrue(o.runs("memory") && !o.runs("modes"));
  }

  @Test
  void badValuesNameTheFlagTheValueAndTheFix() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SparkBenchOptions.parse("--rows", "0"));
    assertTrue(e.getMessage().contains("--rows") && e.getMessage().contains("'0'"), e.getMessage());
    assertTrue(e.getMessage().contains(">= 1"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class, () -> SparkBenchOptions.parse("--benches", "mode"));
    assertTrue(
        e.getMessage().contains("[read-path, modes, batch-overhead, memory]"), e.getMessage());
    assertTrue(e.getMessage().contains("'mode'"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> SparkBenchOptions.parse("--rwos", "1"));
    assertTrue(e.getMessage().contains("unknown flag --rwos"), e.getMessage());
  }
}
