package io.ytstream.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StartingOffsets;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StaticReadPlannerTest {

  private static final QueueId Q = QueueId.of("c", "//q");
  private static final PartitionId P0 = new PartitionId(Q, 0);
  private static final PartitionId P1 = new PartitionId(Q, 1);

  private static QueueBounds bounds(long trimmed0, long total0, long trimmed1, long total1) {
    return QueueBounds.ofQueue(
        Q,
        List.of(
            new PartitionBounds(0, trimmed0, total0), new PartitionBounds(1, trimmed1, total1)));
  }

  private static StreamOffsets offsets(long p0, long p1) {
    return StreamOffsets.ofQueue(Q, Map.of(0, p0, 1, p1));
  }

  @Test
  void eachPartitionsRangeIsCutIntoTasksOfAtMostTheTaskSize() {
    StaticReadPlan plan =
        StaticReadPlanner.plan(
            offsets(2, 0), offsets(9, 3), bounds(0, 10, 0, 3), 3, DataLossPolicy.FAIL);
    assertEquals(
        List.of(
            new OffsetRange(P0, 2, 5),
            new OffsetRange(P0, 5, 8),
            new OffsetRange(P0, 8, 9),
            new OffsetRange(P1, 0, 3)),
        plan.ranges());
    assertEquals(List.of(), plan.losses());
  }

  @Test
  void anEmptyRangeHasNoTask() {
    StaticReadPlan plan =
        StaticReadPlanner.plan(
            offsets(4, 3), offsets(4, 3), bounds(0, 10, 0, 3), 100, DataLossPolicy.FAIL);
    assertEquals(List.of(), plan.ranges());
  }

  @Test
  void trimmedRowsFailOrAreSkippedFromTheFirstRowLeft() {
    DataLossException e =
        assertThrows(
            DataLossException.class,
            () ->
                StaticReadPlanner.plan(
                    offsets(0, 0), offsets(10, 3), bounds(4, 10, 0, 3), 100, DataLossPolicy.FAIL));
    assertEquals(List.of(new DataLoss(P0, 0, 4)), e.losses());

    StaticReadPlan skipped =
        StaticReadPlanner.plan(
            offsets(0, 0), offsets(2, 3), bounds(4, 10, 0, 3), 100, DataLossPolicy.SKIP_AND_REPORT);
    // The whole range of partition 0 is below its first row: all of it is lost, nothing is read.
    assertEquals(List.of(new DataLoss(P0, 0, 2)), skipped.losses());
    assertEquals(2, skipped.lostRowCount());
    assertEquals(List.of(new OffsetRange(P1, 0, 3)), skipped.ranges());
  }

  @Test
  void anEndBeforeItsStartNamesThePartitionAndBoth() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                StaticReadPlanner.plan(
                    offsets(5, 0), offsets(3, 3), bounds(0, 10, 0, 3), 100, DataLossPolicy.FAIL));
    assertTrue(
        e.getMessage().contains("//q partition 0 ends at 3, before its start 5"), e.getMessage());
  }

  @Test
  void theFirstPartitionWhoseEndIsBeforeItsStartIsFoundInPartitionOrder() {
    assertEquals(
        java.util.Optional.of(new EndBeforeStart(P1, 4, 2)),
        StaticReadPlanner.endBeforeStart(offsets(1, 4), offsets(1, 2), bounds(0, 10, 0, 10)));
    assertEquals(
        java.util.Optional.of(new EndBeforeStart(P0, 5, 3)),
        StaticReadPlanner.endBeforeStart(offsets(5, 4), offsets(3, 2), bounds(0, 10, 0, 10)),
        "the first in partition order");
    assertEquals(
        java.util.Optional.empty(),
        StaticReadPlanner.endBeforeStart(offsets(3, 2), offsets(3, 9), bounds(0, 10, 0, 10)),
        "an empty range (end == start) is no reversal");
    assertThrows(
        IllegalArgumentException.class,
        () -> new EndBeforeStart(P0, 3, 3),
        "an end at its start is not before it");
  }

  @Test
  void theResolverNamesTheOptionItResolves() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                StartOffsetResolver.resolve(
                    new StartingOffsets.Specific(Map.of(YPath.of("//q"), Map.of(0, 11L, 1, 0L))),
                    bounds(0, 10, 0, 3),
                    "ending_offsets"));
    assertTrue(
        e.getMessage().startsWith("option ending_offsets ends //q partition 0 at 11"),
        e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            StartOffsetResolver.resolve(
                new StartingOffsets.AtTimestamp(1000), bounds(0, 10, 0, 3), "starting_offsets"));
    assertThrows(IllegalArgumentException.class, () -> new StartingOffsets.AtTimestamp(-1));
  }
}
