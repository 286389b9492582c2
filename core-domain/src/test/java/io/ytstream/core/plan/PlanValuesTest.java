package io.ytstream.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The small value types of the planner: limits, bounds, plans, losses. */
class PlanValuesTest {

  private static final QueueId Q = QueueId.of("c", "//q");
  private static final QueueId R = QueueId.of("b", "//r");
  private static final PartitionId P = new PartitionId(Q, 1);

  @Test
  void planLimits() {
    PlanLimits d = PlanLimits.defaults();
    assertEquals(100_000, PlanLimits.DEFAULT_MAX_ROWS_PER_PARTITION);
    assertEquals(new PlanLimits(100_000, DataLossPolicy.FAIL), d);
    assertEquals(
        new PlanLimits(5, DataLossPolicy.SKIP_AND_REPORT),
        PlanLimits.of(5, DataLossPolicy.SKIP_AND_REPORT));
    for (long bad : new long[] {0, -1}) {
      assertEquals(
          "max_rows_per_partition must be >= 1, got " + bad,
          assertThrows(
                  IllegalArgumentException.class, () -> PlanLimits.of(bad, DataLossPolicy.FAIL))
              .getMessage());
    }
    PlanLimits.of(1, DataLossPolicy.FAIL);
    assertThrows(NullPointerException.class, () -> PlanLimits.of(1, null));
    assertThrows(NullPointerException.class, () -> new PlanLimits(1, null));
  }

  @Test
  void queueBounds() {
    QueueBounds bounds =
        QueueBounds.of(
            Map.of(
                Q, List.of(new PartitionBounds(0, 0, 1), new PartitionBounds(1, 2, 3)),
                R, List.of(new PartitionBounds(0, 4, 5))));
    assertEquals(
        List.of(new PartitionId(R, 0), new PartitionId(Q, 0), new PartitionId(Q, 1)),
        new ArrayList<>(bounds.asMap().keySet()));
    assertEquals(new PartitionBounds(1, 2, 3), bounds.get(P));
    assertEquals(null, bounds.get(new PartitionId(Q, 7)));
    assertThrows(
        UnsupportedOperationException.class,
        () -> bounds.asMap().put(P, new PartitionBounds(1, 0, 0)));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                QueueBounds.ofQueue(
                    Q, List.of(new PartitionBounds(0, 0, 0), new PartitionBounds(2, 0, 0))));
    assertEquals(
        "partitions of c://q must be listed by index 0..n-1; entry 1 has index 2", e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> QueueBounds.ofQueue(Q, List.of(new PartitionBounds(1, 0, 0))));
    assertTrue(QueueBounds.ofQueue(Q, List.of()).asMap().isEmpty());
  }

  @Test
  void dataLoss() {
    DataLoss loss = new DataLoss(P, 3, 8);
    assertEquals(5, loss.lostRows());
    assertEquals(
        "c://q#1: rows [3, 8) were trimmed before they were read (5 rows)", loss.toString());
    assertEquals(1, new DataLoss(P, 0, 1).lostRows());
    for (long first : new long[] {3, 2}) {
      assertEquals(
          "no rows lost: 3 >= " + first,
          assertThrows(IllegalArgumentException.class, () -> new DataLoss(P, 3, first))
              .getMessage());
    }
    DataLossException e =
        new DataLossException(List.of(loss, new DataLoss(new PartitionId(Q, 2), 0, 1)));
    assertEquals(2, e.losses().size());
    assertTrue(
        e.getMessage()
            .startsWith(
                "data loss: c://q#1: rows [3, 8) were trimmed before they were read (5 rows);"
                    + " c://q#2: rows [0, 1) were trimmed before they were read (1 rows). "),
        e.getMessage());
  }

  @Test
  void batchPlan() {
    OffsetRange a = new OffsetRange(P, 0, 4);
    OffsetRange b = new OffsetRange(new PartitionId(Q, 2), 10, 13);
    List<OffsetRange> ranges = new ArrayList<>(List.of(a, b));
    List<DataLoss> losses = new ArrayList<>(List.of(new DataLoss(P, 0, 2), new DataLoss(P, 5, 9)));
    BatchPlan plan = new BatchPlan(StreamOffsets.empty(), StreamOffsets.empty(), ranges, losses);
    ranges.clear();
    losses.clear();
    assertEquals(2, plan.ranges().size());
    assertTrue(plan.hasData());
    assertEquals(7, plan.rowCount());
    assertEquals(6, plan.lostRowCount());
    BatchPlan empty =
        new BatchPlan(StreamOffsets.empty(), StreamOffsets.empty(), List.of(), List.of());
    assertFalse(empty.hasData());
    assertEquals(0, empty.rowCount());
    assertEquals(0, empty.lostRowCount());
    assertThrows(
        NullPointerException.class,
        () -> new BatchPlan(null, StreamOffsets.empty(), List.of(), List.of()));
    assertThrows(
        NullPointerException.class,
        () -> new BatchPlan(StreamOffsets.empty(), null, List.of(), List.of()));
  }
}
