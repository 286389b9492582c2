package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.PlanMicroBatch;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.DataLoss;
import io.ytstream.core.plan.DataLossException;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.TriggerLimit;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * A partition a reshard added while the query ran, whose first rows were trimmed before the query
 * placed it (the seeded schedules seldom aim a trim there): under {@code fail_on_data_loss=true}
 * the plan fails naming the rows; under {@code false} it places the partition at its first readable
 * row and reports them, as Kafka's source does.
 */
class TrimmedBeforePlacedTest {

  private static final QueueId QUEUE = QueueId.of("primary", "//sim/grown");
  private static final PartitionId OLD = new PartitionId(QUEUE, 0);
  private static final PartitionId ADDED = new PartitionId(QUEUE, 1);
  private static final ConsumerId CONSUMER = ConsumerId.of("primary", "//sim/grown-consumer");

  private final InMemoryCluster cluster = new InMemoryCluster("primary", new ManualClock());

  TrimmedBeforePlacedTest() {
    cluster.createOrderedTable(QUEUE.path(), List.of(new Column("v", "int64", false, true)), 1);
    cluster.createConsumer(CONSUMER.path());
    cluster.registerConsumer(QUEUE.path(), CONSUMER.path(), true);
    cluster.appendToTablet(QUEUE.path(), 0, List.of(Row.of("v", 0L)));
    cluster.reshard(QUEUE.path(), 2);
    cluster.appendToTablet(
        QUEUE.path(), 1, List.of(Row.of("v", 1L), Row.of("v", 2L), Row.of("v", 3L)));
    cluster.trimRows(QUEUE.path(), 1, 2);
  }

  private PlanMicroBatch.PlannedEnd plan(DataLossPolicy policy) {
    PlanMicroBatch planner =
        new PlanMicroBatch(
            cluster.queueMetadata(),
            CONSUMER,
            List.of(QUEUE),
            new PlanLimits(10, policy, OptionalLong.empty()));
    StreamOffsets start = StreamOffsets.of(Map.of(OLD, 1L));
    return planner.plan(
        start,
        planner.readBounds(),
        cluster.consumerOffsets().read(CONSUMER, QUEUE),
        TriggerLimit.none(),
        Long.MAX_VALUE,
        true);
  }

  @Test
  void failOnDataLossFailsNamingTheTrimmedRows() {
    DataLossException e = assertThrows(DataLossException.class, () -> plan(DataLossPolicy.FAIL));
    assertEquals(List.of(new DataLoss(ADDED, 0, 2)), e.losses());
  }

  @Test
  void skipAndReportPlacesThePartitionAtItsFirstReadableRow() {
    PlanMicroBatch.PlannedEnd planned = plan(DataLossPolicy.SKIP_AND_REPORT);
    assertTrue(planned.placesNewPartitions());
    assertEquals(2, planned.end().getOrDefault(ADDED, -1));
    assertEquals(1, planned.end().getOrDefault(OLD, -1), "placing reads no rows");
    assertEquals(List.of(new DataLoss(ADDED, 0, 2)), planned.losses());
  }
}
