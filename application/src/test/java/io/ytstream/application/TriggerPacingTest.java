package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.TriggerLimit;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** min_rows_per_trigger's delay over a run of triggers, over the in-memory cluster. */
class TriggerPacingTest {

  private static final YPath QUEUE = YPath.of("//q");
  private static final QueueId Q = QueueId.of("primary", "//q");
  private static final PartitionId P = new PartitionId(Q, 0);
  private static final ConsumerId CONSUMER = ConsumerId.of("primary", "//c");
  private static final TriggerLimit MIN_5_WITHIN_60S =
      new TriggerLimit(OptionalLong.empty(), OptionalLong.of(5), 60_000);

  private final InMemoryCluster cluster = new InMemoryCluster("primary", new ManualClock());
  private final PlanMicroBatch planner;
  private final TriggerPacing pacing;

  TriggerPacingTest() {
    cluster.createOrderedTable(QUEUE, List.of(new Column("v", "int64", false, true)), 1);
    cluster.createConsumer(CONSUMER.path());
    cluster.registerConsumer(QUEUE, CONSUMER.path(), true);
    planner =
        new PlanMicroBatch(
            cluster.queueMetadata(),
            CONSUMER,
            List.of(Q),
            PlanLimits.of(1_000, DataLossPolicy.FAIL));
    pacing = new TriggerPacing(planner);
  }

  private void append(int rows) {
    List<Row> batch = new ArrayList<>();
    for (long v = 0; v < rows; v++) {
      batch.add(Row.of("v", v));
    }
    cluster.appendToTablet(QUEUE, 0, batch);
  }

  private PlanMicroBatch.PlannedEnd trigger(StreamOffsets start, boolean availableNow, long now) {
    return pacing.plan(
        start,
        planner.readBounds(),
        cluster.consumerOffsets().read(CONSUMER, Q),
        MIN_5_WITHIN_60S,
        availableNow,
        now,
        true);
  }

  private static StreamOffsets at(long offset) {
    return StreamOffsets.of(Map.of(P, offset));
  }

  @Test
  void theFirstTriggerRunsAndLaterOnesWaitForTheMinimumOrTheDelay() {
    append(2);
    PlanMicroBatch.PlannedEnd first = trigger(at(0), false, 1_000);
    assertFalse(first.heldBack(), "the first trigger never waits");
    assertEquals(at(2), first.end());

    append(3);
    assertTrue(trigger(at(2), false, 30_000).heldBack(), "3 rows < 5, 29 s since the last batch");
    PlanMicroBatch.PlannedEnd due = trigger(at(2), false, 61_000);
    assertFalse(due.heldBack(), "the delay passed since the batch at 1 s");
    assertEquals(at(5), due.end());
  }

  @Test
  void emptyTriggersDoNotRestartTheDelay() {
    append(5);
    assertEquals(at(5), trigger(at(0), false, 0).end());
    // Idle triggers find nothing; they are not batches and must not push the delay on.
    assertEquals(at(5), trigger(at(5), false, 40_000).end());
    assertEquals(at(5), trigger(at(5), false, 50_000).end());
    append(1);
    assertFalse(trigger(at(5), false, 60_000).heldBack(), "60 s since the last batch at 0");
  }

  @Test
  void availableNowIsNeverHeldBackByTheMinimum() {
    append(6);
    assertEquals(at(6), trigger(at(0), false, 0).end());
    append(2);
    assertTrue(trigger(at(6), false, 1_000).heldBack());
    PlanMicroBatch.PlannedEnd now = trigger(at(6), true, 1_000);
    assertFalse(now.heldBack(), "AvailableNow would end at a held-back trigger");
    assertEquals(at(8), now.end());
  }
}
