package io.ytstream.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class PartitionIdTest {

  private static final QueueId A = QueueId.of("a", "//q");
  private static final QueueId B = QueueId.of("b", "//q");

  @Test
  void validation() {
    assertEquals(
        "partition index must be >= 0, got -1",
        assertThrows(IllegalArgumentException.class, () -> new PartitionId(A, -1)).getMessage());
    assertEquals(
        "queue",
        assertThrows(NullPointerException.class, () -> new PartitionId(null, 0)).getMessage());
    assertEquals(0, new PartitionId(A, 0).index());
  }

  @Test
  void text() {
    assertEquals("a://q#7", new PartitionId(A, 7).toString());
  }

  @Test
  void orderIsQueueThenNumericIndex() {
    List<PartitionId> sorted =
        List.of(
            new PartitionId(A, 0),
            new PartitionId(A, 2),
            new PartitionId(A, 10),
            new PartitionId(B, 0),
            new PartitionId(B, 1));
    for (int i = 0; i < sorted.size(); i++) {
      for (int j = 0; j < sorted.size(); j++) {
        assertEquals(
            Integer.signum(Integer.compare(i, j)),
            Integer.signum(sorted.get(i).compareTo(sorted.get(j))),
            sorted.get(i) + " vs " + sorted.get(j));
      }
    }
  }
}
