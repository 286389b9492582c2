package io.ytstream.benchmarks.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

class SparkBenchOptionsTest {

  @Test
  void defaultsAreTheIssueSizes() {
    SparkBenchOptions o = SparkBenchOptions.parse();
    assertEquals(2_000_000, o.rows());
    assertEquals(5_000_000, o.backlogRows());
    assertEquals("1g", o.backlogHeap());
    assertEquals(Set.of(1, 3, 4, 6), o.items());
  }

  @Test
  void itemTwoRunsWithItemOne() {
    assertEquals(Set.of(1, 6), SparkBenchOptions.parse("--items", "2,6").items());
  }

  @Test
  void badValuesNameTheFlagTheValueAndTheFix() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SparkBenchOptions.parse("--rows", "0"));
    assertTrue(e.getMessage().contains("--rows") && e.getMessage().contains("'0'"), e.getMessage());
    assertTrue(e.getMessage().contains(">= 1"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> SparkBenchOptions.parse("--items", "5"));
    assertTrue(e.getMessage().contains("1, 2, 3, 4, 6"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> SparkBenchOptions.parse("--rwos", "1"));
    assertTrue(e.getMessage().contains("unknown flag --rwos"), e.getMessage());
  }
}
