package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.TriggerLimit;
import io.ytstream.core.plan.UntrustedPositionsException;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * A queue that shrank or was re-created under a checkpoint stops the source's micro-batch and
 * real-time calls with a message that says what changed, before any range is planned or the
 * consumer moves.
 */
class UntrustedPositionsUseCaseTest {

  private static final YPath QUEUE = YPath.of("//q");
  private static final QueueId Q = QueueId.of("primary", "//q");
  private static final ConsumerId CONSUMER = ConsumerId.of("primary", "//c");
  private static final PartitionId P0 = new PartitionId(Q, 0);
  private static final PartitionId P1 = new PartitionId(Q, 1);

  private final InMemoryCluster cluster = new InMemoryCluster("primary", new ManualClock());
  private final List<StreamOffsets> consumerMoves = new ArrayList<>();

  private void queue(int partitions, int rowsEach) {
    cluster.createOrderedTable(QUEUE, List.of(new Column("v", "int64", false, true)), partitions);
    if (!cluster.exists(CONSUMER.path())) {
      cluster.createConsumer(CONSUMER.path());
    }
    cluster.registerConsumer(QUEUE, CONSUMER.path(), true);
    for (int p = 0; p < partitions; p++) {
      List<Row> rows = new ArrayList<>();
      for (long v = 0; v < rowsEach; v++) {
        rows.add(Row.of("v", v));
      }
      cluster.appendToTablet(QUEUE, p, rows);
    }
  }

  private void recreate(int partitions, int rowsEach) {
    cluster.checkpoints().delete(QUEUE, false);
    queue(partitions, rowsEach);
  }

  private PlanMicroBatch planner() {
    return new PlanMicroBatch(
        cluster.queueMetadata(), CONSUMER, List.of(Q), PlanLimits.of(100, DataLossPolicy.FAIL));
  }

  private RealTimeBatchBoundary boundary() {
    return new RealTimeBatchBoundary(
        planner(),
        new AdvanceConsumer(cluster.consumerOffsets(), CONSUMER, List.of(Q)),
        Optional::empty,
        consumerMoves::add);
  }

  private StreamingSource source() {
    return InMemorySources.over(cluster, cluster.queueReader(), CONSUMER, Q);
  }

  /** Puts the consumer at {@code offset} in every partition of {@code partitions}. */
  private void consumerAt(int partitions, long offset) {
    for (int p = 0; p < partitions; p++) {
      cluster
          .consumerOffsets()
          .advance(CONSUMER, new PartitionId(Q, p), OptionalLong.of(0), offset);
    }
  }

  private StreamOffsets consumerNow() {
    return cluster.consumerOffsets().read(CONSUMER, Q);
  }

  @Test
  void aQueueWithFewerPartitionsStopsTheMicroBatchBeforeTheConsumerFollows() {
    queue(2, 5);
    consumerAt(2, 2);
    StreamOffsets start = StreamOffsets.of(Map.of(P0, 5L, P1, 5L));
    recreate(1, 9);
    StreamOffsets consumerBefore = consumerNow();
    UntrustedPositionsException e =
        assertThrows(
            UntrustedPositionsException.class,
            () -> source().latestOffset(start, TriggerLimit.none(), 0));
    assertTrue(
        e.getMessage()
            .startsWith(
                "queue //q has 1 partition(s) now, but the checkpoint holds offsets for partition"
                    + " 1 at offset 5."),
        e.getMessage());
    assertEquals(consumerBefore, consumerNow(), "the consumer did not follow a refused start");
  }

  @Test
  void aPartitionEndingBeforeItsOffsetStopsTheMicroBatchBeforeTheConsumerFollows() {
    queue(2, 5);
    consumerAt(2, 1);
    StreamOffsets start = StreamOffsets.of(Map.of(P0, 5L, P1, 4L));
    recreate(2, 3);
    StreamOffsets consumerBefore = consumerNow();
    UntrustedPositionsException e =
        assertThrows(
            UntrustedPositionsException.class,
            () -> source().latestOffset(start, TriggerLimit.none(), 0));
    assertTrue(
        e.getMessage()
            .startsWith(
                "partition 0 of queue //q ends at row 3 (first readable row 0), below the"
                    + " checkpoint's offset 5; partition 1 of queue //q ends at row 3"),
        e.getMessage());
    assertEquals(consumerBefore, consumerNow(), "the consumer did not follow a refused start");
  }

  @Test
  void aReRunBatchWhoseLoggedEndTheQueueNoLongerFitsIsRefusedBeforeItsTasks() {
    queue(2, 5);
    StreamOffsets start = StreamOffsets.of(Map.of(P0, 2L, P1, 2L));
    StreamOffsets end = StreamOffsets.of(Map.of(P0, 5L, P1, 5L));
    recreate(2, 3);
    // A restarted query runs the logged batch again without latestOffset.
    UntrustedPositionsException e =
        assertThrows(
            UntrustedPositionsException.class, () -> source().planInputPartitions(start, end));
    assertTrue(e.getMessage().contains("below the checkpoint's offset 5"), e.getMessage());
  }

  @Test
  void aRealTimeBoundaryRefusesTheStartBeforeTheConsumerFollowsIt() {
    queue(2, 5);
    StreamOffsets start = StreamOffsets.of(Map.of(P0, 5L, P1, 5L));
    recreate(1, 9);
    RealTimeBatchBoundary boundary = boundary();
    UntrustedPositionsException e =
        assertThrows(UntrustedPositionsException.class, () -> boundary.atLatestOffset(start));
    assertTrue(e.getMessage().contains("partition 1 at offset 5"), e.getMessage());
    assertEquals(List.of(), consumerMoves, "the consumer did not follow a refused start");
    assertThrows(UntrustedPositionsException.class, () -> boundary.tasks(start));
  }
}
