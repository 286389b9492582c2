package io.ytstream.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PartitionBoundsTest {

  @Test
  void exhaustiveValidation() {
    for (int index = -1; index <= 2; index++) {
      for (long trimmed = -2; trimmed <= 5; trimmed++) {
        for (long total = -2; total <= 5; total++) {
          int i = index;
          long t = trimmed;
          long n = total;
          String ctx = i + "/" + t + "/" + n;
          if (index < 0) {
            assertEquals(
                "partition index must be >= 0, got " + i,
                assertThrows(IllegalArgumentException.class, () -> new PartitionBounds(i, t, n))
                    .getMessage(),
                ctx);
          } else if (trimmed < 0 || total < trimmed) {
            assertEquals(
                "partition "
                    + i
                    + ": need 0 <= trimmed_row_count ("
                    + t
                    + ") <= total_row_count ("
                    + n
                    + ")",
                assertThrows(IllegalArgumentException.class, () -> new PartitionBounds(i, t, n))
                    .getMessage(),
                ctx);
          } else {
            PartitionBounds b = new PartitionBounds(i, t, n);
            assertEquals(i, b.index());
            assertEquals(t, b.trimmedRowCount());
            assertEquals(n, b.totalRowCount());
          }
        }
      }
    }
  }
}
