package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The real-time boundary with several queue partitions per task: tasks planned by block ({@link
 * io.ytstream.core.plan.RealTimeTaskGroups}), and the batch's end merged from tasks that each
 * report all their partitions.
 */
class RealTimeBoundaryTaskGroupsTest {

  private static final QueueId Q1 = QueueId.of("primary", "//q1");
  private static final ConsumerId CONSUMER = ConsumerId.of("primary", "//c");

  private static SortedMap<PartitionId, Long> starts(QueueId q, int partitions) {
    TreeMap<PartitionId, Long> out = new TreeMap<>();
    for (int i = 0; i < partitions; i++) {
      out.put(new PartitionId(q, i), 10L * i);
    }
    return out;
  }

  private static List<Integer> indexes(SortedMap<PartitionId, Long> task) {
    return task.keySet().stream().map(PartitionId::index).toList();
  }

  // The boundary over the in-memory cluster: tasks planned by block, ends merged per partition.

  private final InMemoryCluster cluster = new InMemoryCluster("primary", new ManualClock());

  private RealTimeBatchBoundary boundary(int partitions, int perTask) {
    queue(partitions);
    return newBoundary(perTask);
  }

  private void queue(int partitions) {
    YPath path = Q1.path();
    cluster.createOrderedTable(path, List.of(new Column("v", "int64", false, true)), partitions);
    cluster.createConsumer(CONSUMER.path());
    cluster.registerConsumer(path, CONSUMER.path(), true);
    for (int p = 0; p < partitions; p++) {
      List<Row> rows = new ArrayList<>();
      for (long v = 0; v < 200; v++) {
        rows.add(Row.of("v", v));
      }
      cluster.appendToTablet(path, p, rows);
    }
  }

  /** A boundary as a query run makes it: a restart makes a new one over the same cluster. */
  private RealTimeBatchBoundary newBoundary(int perTask) {
    PlanMicroBatch planner =
        new PlanMicroBatch(
            cluster.queueMetadata(),
            CONSUMER,
            List.of(Q1),
            PlanLimits.of(100, DataLossPolicy.FAIL));
    return new RealTimeBatchBoundary(
        planner,
        new AdvanceConsumer(cluster.consumerOffsets(), CONSUMER, List.of(Q1)),
        Optional::empty,
        end -> {},
        perTask);
  }

  @Test
  void theBoundaryPlansBlocksAndMergesEveryPartitionOfEveryTask() {
    RealTimeBatchBoundary boundary = boundary(16, 4);
    StreamOffsets start = StreamOffsets.of(starts(Q1, 16));
    RealTimeBatchBoundary.Tasks tasks = boundary.tasks(start);
    assertEquals(4, tasks.perTask().size());
    assertEquals(List.of(4, 5, 6, 7), indexes(tasks.perTask().get(1)));

    // Each task reports all its partitions, read or not (a quiet one reports its start).
    List<RealTimeBatchBoundary.TaskEnd> ends = new ArrayList<>();
    TreeMap<PartitionId, Long> expected = new TreeMap<>();
    for (SortedMap<PartitionId, Long> task : tasks.perTask()) {
      TreeMap<PartitionId, Long> next = new TreeMap<>();
      task.forEach((p, from) -> next.put(p, p.index() % 3 == 0 ? from : from + p.index()));
      ends.add(new RealTimeBatchBoundary.TaskEnd(next));
      expected.putAll(next);
    }
    StreamOffsets end = boundary.merge(ends);
    assertEquals(StreamOffsets.of(expected), end);
    assertEquals(16, end.asMap().size(), "an end for every partition");

    // A restart from that end resumes every partition exactly there.
    RealTimeBatchBoundary restarted = newBoundary(4);
    TreeMap<PartitionId, Long> resumed = new TreeMap<>();
    restarted.tasks(end).perTask().forEach(resumed::putAll);
    assertEquals(expected, resumed);
  }

  @Test
  void aTaskThatReportedOnlySomePartitionsLeavesTheOthersAtTheStart() {
    RealTimeBatchBoundary boundary = boundary(4, 2);
    StreamOffsets start = StreamOffsets.of(starts(Q1, 4));
    boundary.tasks(start);
    StreamOffsets end =
        boundary.merge(
            List.of(
                new RealTimeBatchBoundary.TaskEnd(
                    new TreeMap<>(Map.of(new PartitionId(Q1, 0), 5L, new PartitionId(Q1, 1), 12L))),
                new RealTimeBatchBoundary.TaskEnd(new PartitionId(Q1, 0), 3L)));
    assertEquals(
        StreamOffsets.of(
            Map.of(
                new PartitionId(Q1, 0), 5L,
                new PartitionId(Q1, 1), 12L,
                new PartitionId(Q1, 2), 20L,
                new PartitionId(Q1, 3), 30L)),
        end,
        "the furthest per partition; unreported partitions stay at their start");
  }
}
