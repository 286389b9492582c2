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

  @Test
  void boundsCappedAtATargetKeepItsEndsAndGiveAPartitionItDoesNotKnowNoRows() {
    QueueBounds now =
        QueueBounds.ofQueue(
            Q,
            List.of(
                new PartitionBounds(0, 2, 10),
                new PartitionBounds(1, 0, 5),
                new PartitionBounds(2, 7, 9)));
    QueueBounds target =
        QueueBounds.ofQueue(Q, List.of(new PartitionBounds(0, 0, 6), new PartitionBounds(1, 0, 8)));

    QueueBounds capped = now.cappedAt(target);

    assertEquals(new PartitionBounds(0, 2, 6), capped.get(new PartitionId(Q, 0)), "capped");
    assertEquals(new PartitionBounds(1, 0, 5), capped.get(new PartitionId(Q, 1)), "already below");
    assertEquals(
        new PartitionBounds(2, 7, 7), capped.get(new PartitionId(Q, 2)), "new since: no rows");
    QueueBounds trimmedPast =
        QueueBounds.ofQueue(Q, List.of(new PartitionBounds(0, 8, 12))).cappedAt(target);
    assertEquals(
        new PartitionBounds(0, 6, 6),
        trimmedPast.get(new PartitionId(Q, 0)),
        "trimmed past the target: nothing left to read, the trimmed count never above the end");
  }

  @Test
  void rowsAfterAStartCountFromTheStartOrTheFirstRowLeftWhicheverIsLater() {
    // Partition 0 holds rows 2..9, partition 1 rows 0..4.
    assertEquals(8 + 5, bounds.rowsAfter(StreamOffsets.empty()), "no start: every row left");
    assertEquals(
        (10 - 4) + (5 - 5),
        bounds.rowsAfter(
            StreamOffsets.of(Map.of(new PartitionId(Q, 0), 4L, new PartitionId(Q, 1), 5L))));
    assertEquals(
        8 + 0,
        bounds.rowsAfter(
            StreamOffsets.of(Map.of(new PartitionId(Q, 0), 1L, new PartitionId(Q, 1), 7L))),
        "a start below the first row counts from it; one past the end counts nothing");
  }
}
