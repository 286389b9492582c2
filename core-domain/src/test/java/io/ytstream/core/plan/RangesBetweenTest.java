package io.ytstream.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A batch's ranges between two offsets, and its tasks: one per range. */
class RangesBetweenTest {

  private static final QueueId A = QueueId.of("c", "//a");
  private static final QueueId B = QueueId.of("c", "//b");

  @Test
  void theNonEmptyRangesInPartitionOrder() {
    StreamOffsets start =
        StreamOffsets.of(
            Map.of(
                new PartitionId(B, 0), 3L, new PartitionId(A, 1), 7L, new PartitionId(A, 0), 2L));
    StreamOffsets end =
        StreamOffsets.of(
            Map.of(
                new PartitionId(B, 0), 9L, new PartitionId(A, 1), 7L, new PartitionId(A, 0), 4L));

    assertEquals(
        List.of(
            new OffsetRange(new PartitionId(A, 0), 2, 4),
            new OffsetRange(new PartitionId(B, 0), 3, 9)),
        RangesBetween.of(start, end),
        "partition A/1 did not move: no range");
  }

  @Test
  void aPartitionTheStartDoesNotKnowHasNoRows() {
    StreamOffsets start = StreamOffsets.of(Map.of(new PartitionId(A, 0), 2L));
    StreamOffsets end =
        StreamOffsets.of(Map.of(new PartitionId(A, 0), 2L, new PartitionId(A, 1), 6L));
    assertEquals(List.of(), RangesBetween.of(start, end));
  }

  @Test
  void offsetsMovingBackwardsAreRefused() {
    StreamOffsets start = StreamOffsets.of(Map.of(new PartitionId(A, 0), 5L));
    StreamOffsets end = StreamOffsets.of(Map.of(new PartitionId(A, 0), 4L));
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> RangesBetween.of(start, end));
    assertTrue(e.getMessage().contains("5 -> 4"), e.getMessage());
  }

  @Test
  void eachRangeIsOneTaskNumberedInOrder() {
    List<OffsetRange> ranges =
        List.of(
            new OffsetRange(new PartitionId(A, 0), 2, 4),
            new OffsetRange(new PartitionId(A, 3), 0, 1),
            new OffsetRange(new PartitionId(B, 0), 3, 9));

    List<TaskAssignment> tasks = TaskAssigner.oneTaskPerRange(ranges);

    assertEquals(
        List.of(
            new TaskAssignment(0, List.of(ranges.get(0))),
            new TaskAssignment(1, List.of(ranges.get(1))),
            new TaskAssignment(2, List.of(ranges.get(2)))),
        tasks);
    assertEquals(6, tasks.get(2).rowCount());
    assertEquals(List.of(), TaskAssigner.oneTaskPerRange(List.of()));
  }
}
