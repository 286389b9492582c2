package io.ytstream.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class OffsetRangeTest {

  private static final PartitionId P = new PartitionId(QueueId.of("c", "//q"), 3);

  @Test
  void exhaustiveValidationAndHalfOpenSemantics() {
    for (long lower = -2; lower <= 6; lower++) {
      for (long upper = -2; upper <= 6; upper++) {
        long lo = lower;
        long up = upper;
        String ctx = "[" + lo + "," + up + ")";
        if (lower < 0 || upper < lower) {
          IllegalArgumentException e =
              assertThrows(IllegalArgumentException.class, () -> new OffsetRange(P, lo, up), ctx);
          assertEquals(
              "invalid range [" + lo + ", " + up + ") for c://q#3: need 0 <= lower <= upper",
              e.getMessage());
          continue;
        }
        OffsetRange r = new OffsetRange(P, lo, up);
        assertEquals(up - lo, r.rowCount(), ctx);
        assertEquals(up == lo, r.isEmpty(), ctx);
        long contained = 0;
        for (long row = -1; row <= 7; row++) {
          boolean inside = row >= lo && row < up;
          assertEquals(inside, r.contains(row), ctx + " row " + row);
          contained += inside ? 1 : 0;
        }
        assertEquals(r.rowCount(), contained, ctx);
        assertEquals("c://q#3" + ctx, r.toString());
      }
    }
  }

  @Test
  void largeValues() {
    OffsetRange r = new OffsetRange(P, Long.MAX_VALUE - 5, Long.MAX_VALUE);
    assertEquals(5, r.rowCount());
    assertEquals(true, r.contains(Long.MAX_VALUE - 1));
    assertEquals(false, r.contains(Long.MAX_VALUE));
  }

  @Test
  void partitionRequired() {
    assertEquals(
        "partition",
        assertThrows(NullPointerException.class, () -> new OffsetRange(null, 0, 1)).getMessage());
  }
}
