package io.ytstream.core.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Row k of the task for partition p goes to tablet (p + k) mod tablets. */
class OutputTabletsTest {

  @Test
  void rowsOfATaskGoRoundTheTabletsFromItsPartition() {
    List<Integer> tablets = new ArrayList<>();
    for (long k = 0; k < 5; k++) {
      tablets.add(OutputTablets.forRow(2, k, 3));
    }
    assertEquals(List.of(2, 0, 1, 2, 0), tablets);
  }

  @Test
  void largeRowNumbersAndPartitionsStayWithinTheTablets() {
    assertEquals((int) ((7L + (1L << 40)) % 5), OutputTablets.forRow(7, 1L << 40, 5));
    assertEquals(0, OutputTablets.forRow(Long.MAX_VALUE - 3, 3, 1));
    assertEquals(4, OutputTablets.forRow(-1, 0, 5), "never a negative tablet");
  }

  @Test
  void anOutputWithoutTabletsIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> OutputTablets.forRow(0, 0, 0));
  }
}
