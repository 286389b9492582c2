package io.ytstream.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Bounds read ahead, raised to where readers have already been. */
class QueueBoundsTest {

  private static final QueueId Q = QueueId.of("c", "//q");
  private static final QueueId OTHER = QueueId.of("c", "//other");

  private final QueueBounds bounds =
      QueueBounds.ofQueue(Q, List.of(new PartitionBounds(0, 2, 10), new PartitionBounds(1, 0, 5)));

  @Test
  void raisesOnlyTheEndsThatReadersPassedAndKeepsTheTrimmedCounts() {
    StreamOffsets read =
        StreamOffsets.of(
            Map.of(
                new PartitionId(Q, 0), 14L,
                new PartitionId(Q, 1), 3L,
                new PartitionId(OTHER, 0), 99L));

    QueueBounds raised = bounds.atLeast(read);

    assertEquals(new PartitionBounds(0, 2, 14), raised.get(new PartitionId(Q, 0)));
    assertEquals(new PartitionBounds(1, 0, 5), raised.get(new PartitionId(Q, 1)), "not behind");
    assertEquals(2, raised.size(), "a partition the bounds do not list is not added");
    assertEquals(new PartitionBounds(0, 2, 10), bounds.get(new PartitionId(Q, 0)), "unchanged");
  }

  @Test
  void boundsAheadOfEveryReaderAreReturnedAsTheyAre() {
    StreamOffsets read = StreamOffsets.of(Map.of(new PartitionId(Q, 0), 10L));
    assertSame(bounds, bounds.atLeast(read));
    assertSame(bounds, bounds.atLeast(StreamOffsets.empty()));
  }
}
