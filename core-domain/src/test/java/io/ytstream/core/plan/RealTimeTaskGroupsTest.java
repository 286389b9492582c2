package io.ytstream.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Several queue partitions per real-time task: which task reads which partition. */
class RealTimeTaskGroupsTest {

  private static final QueueId Q1 = QueueId.of("primary", "//q1");
  private static final QueueId Q2 = QueueId.of("primary", "//q2");

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

  @Test
  void sixteenPartitionsAtFourPerTaskAreFourContiguousBlocks() {
    List<SortedMap<PartitionId, Long>> tasks = RealTimeTaskGroups.assign(starts(Q1, 16), 4);
    assertEquals(4, tasks.size());
    assertEquals(List.of(0, 1, 2, 3), indexes(tasks.get(0)));
    assertEquals(List.of(12, 13, 14, 15), indexes(tasks.get(3)));
    assertEquals(130L, tasks.get(3).get(new PartitionId(Q1, 13)), "each keeps its start");
  }

  @Test
  void everyPartitionIsInExactlyOneTaskAndTheLastTaskTakesTheRest() {
    for (int partitions = 1; partitions <= 20; partitions++) {
      for (int perTask = 1; perTask <= 6; perTask++) {
        SortedMap<PartitionId, Long> all = starts(Q1, partitions);
        List<SortedMap<PartitionId, Long>> tasks = RealTimeTaskGroups.assign(all, perTask);
        assertEquals((partitions + perTask - 1) / perTask, tasks.size(), "the fewest that fit");
        TreeMap<PartitionId, Long> union = new TreeMap<>();
        int total = 0;
        for (int t = 0; t < tasks.size(); t++) {
          int size = tasks.get(t).size();
          assertTrue(size >= 1 && size <= perTask, "task " + t + " reads " + size);
          if (t < tasks.size() - 1) {
            assertEquals(perTask, size, "only the last task is short");
          }
          union.putAll(tasks.get(t));
          total += size;
        }
        assertEquals(all, union);
        assertEquals(partitions, total, "no partition in two tasks");
      }
    }
  }

  @Test
  void theAssignmentIsDeterministicAndStableWhenAQueueGrowsAtItsEnd() {
    List<SortedMap<PartitionId, Long>> before = RealTimeTaskGroups.assign(starts(Q1, 6), 4);
    List<SortedMap<PartitionId, Long>> again = RealTimeTaskGroups.assign(starts(Q1, 6), 4);
    assertEquals(before, again);
    List<SortedMap<PartitionId, Long>> grown = RealTimeTaskGroups.assign(starts(Q1, 10), 4);
    assertEquals(before.get(0), grown.get(0), "the first block is untouched by the reshard");
    assertEquals(List.of(4, 5, 6, 7), indexes(grown.get(1)), "new tablets fill the last task");
    assertEquals(List.of(8, 9), indexes(grown.get(2)));
  }

  @Test
  void severalQueuesAreBlockedInQueueThenTabletOrder() {
    TreeMap<PartitionId, Long> all = new TreeMap<>(starts(Q2, 2));
    all.putAll(starts(Q1, 3));
    List<SortedMap<PartitionId, Long>> tasks = RealTimeTaskGroups.assign(all, 2);
    assertEquals(3, tasks.size());
    assertEquals(
        List.of(new PartitionId(Q1, 0), new PartitionId(Q1, 1)),
        List.copyOf(tasks.get(0).keySet()));
    assertEquals(
        List.of(new PartitionId(Q1, 2), new PartitionId(Q2, 0)),
        List.copyOf(tasks.get(1).keySet()));
  }

  @Test
  void aPerTaskBelowOneIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> RealTimeTaskGroups.assign(starts(Q1, 2), 0));
  }
}
