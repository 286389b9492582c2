package io.ytstream.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TaskAssignerTest {

  private static final QueueId Q = QueueId.of("c", "//q");
  private static final QueueId R = QueueId.of("c", "//r");

  private static OffsetRange range(QueueId q, int index, long lower, long rows) {
    return new OffsetRange(new PartitionId(q, index), lower, lower + rows);
  }

  private static void checkInvariants(List<OffsetRange> ranges, int maxTasks, String ctx) {
    List<TaskAssignment> tasks = TaskAssigner.assign(ranges, maxTasks);
    int expectedTasks = Math.min(maxTasks, ranges.size());
    assertEquals(expectedTasks, tasks.size(), ctx);
    List<OffsetRange> seen = new ArrayList<>();
    long max = Long.MIN_VALUE;
    long min = Long.MAX_VALUE;
    long largest = 0;
    for (int t = 0; t < tasks.size(); t++) {
      TaskAssignment task = tasks.get(t);
      assertEquals(t, task.task(), ctx + ": task order");
      assertTrue(!task.ranges().isEmpty(), ctx + ": no idle task");
      List<OffsetRange> sorted = new ArrayList<>(task.ranges());
      sorted.sort(Comparator.comparing(OffsetRange::partition));
      assertEquals(sorted, task.ranges(), ctx + ": partition order within a task");
      seen.addAll(task.ranges());
      long load = task.ranges().stream().mapToLong(OffsetRange::rowCount).sum();
      assertEquals(load, task.rowCount(), ctx);
      max = Math.max(max, load);
      min = Math.min(min, load);
      if (maxTasks >= ranges.size()) {
        assertEquals(1, task.ranges().size(), ctx + ": one range per task");
      }
    }
    for (OffsetRange r : ranges) {
      largest = Math.max(largest, r.rowCount());
    }
    List<OffsetRange> expected = new ArrayList<>(ranges);
    expected.sort(Comparator.comparing(OffsetRange::partition));
    seen.sort(Comparator.comparing(OffsetRange::partition));
    assertEquals(expected, seen, ctx + ": every range exactly once");
    if (!tasks.isEmpty()) {
      assertTrue(max - min <= largest, ctx + ": unbalanced " + tasks);
    }
    assertEquals(tasks, TaskAssigner.assign(ranges, maxTasks), ctx + ": deterministic");
    List<OffsetRange> reversed = new ArrayList<>(ranges);
    Collections.reverse(reversed);
    assertEquals(tasks, TaskAssigner.assign(reversed, maxTasks), ctx + ": input order ignored");
  }

  @Test
  void exhaustiveSmallBatches() {
    int batches = 0;
    for (int n = 0; n <= 6; n++) {
      int combos = (int) Math.pow(4, n);
      for (int code = 0; code < combos; code++) {
        List<OffsetRange> ranges = new ArrayList<>();
        int c = code;
        for (int i = 0; i < n; i++) {
          ranges.add(range(i % 2 == 0 ? Q : R, i / 2, i, 1 + c % 4));
          c /= 4;
        }
        for (int maxTasks = 1; maxTasks <= 7; maxTasks++) {
          checkInvariants(ranges, maxTasks, ranges + " maxTasks=" + maxTasks);
          batches++;
        }
      }
    }
    assertEquals(5461 * 7, batches);
  }

  @Test
  void randomizedLargeBatches() {
    for (long seed = 1; seed <= 200; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      int n = random.nextInt(60);
      List<OffsetRange> ranges = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        ranges.add(range(Q, i, random.nextLong(1L << 40), 1 + random.nextLong(1L << 30)));
      }
      Collections.shuffle(ranges, new Random(seed));
      checkInvariants(ranges, 1 + random.nextInt(70), "seed=" + seed);
    }
  }

  @Test
  void largestFirstToTheLeastLoadedTask() {
    // Sizes 5, 4, 3, 3, 1 over two tasks: 5->t0, 4->t1, 3(p2)->t1, 3(p3)->t0, 1->t1.
    List<OffsetRange> ranges =
        List.of(
            range(Q, 0, 0, 3),
            range(Q, 1, 0, 5),
            range(Q, 2, 0, 3),
            range(Q, 3, 0, 1),
            range(Q, 4, 0, 4));
    List<TaskAssignment> tasks = TaskAssigner.assign(ranges, 2);
    assertEquals(
        List.of(
            new TaskAssignment(0, List.of(range(Q, 1, 0, 5), range(Q, 2, 0, 3))),
            new TaskAssignment(
                1, List.of(range(Q, 0, 0, 3), range(Q, 3, 0, 1), range(Q, 4, 0, 4)))),
        tasks);
    // Ties in load go to the lowest task number.
    assertEquals(
        List.of(
            new TaskAssignment(0, List.of(range(Q, 0, 0, 2), range(Q, 2, 0, 2))),
            new TaskAssignment(1, List.of(range(Q, 1, 0, 2)))),
        TaskAssigner.assign(List.of(range(Q, 0, 0, 2), range(Q, 1, 0, 2), range(Q, 2, 0, 2)), 2));
  }

  @Test
  void noRangesNoTasks() {
    assertEquals(List.of(), TaskAssigner.assign(List.of(), 4));
  }

  @Test
  void rejectsNoTasks() {
    for (int bad : new int[] {0, -1, Integer.MIN_VALUE}) {
      assertEquals(
          "maxTasks must be >= 1, got " + bad,
          assertThrows(IllegalArgumentException.class, () -> TaskAssigner.assign(List.of(), bad))
              .getMessage());
    }
  }

  @Test
  void assignmentIsImmutable() {
    List<OffsetRange> own = new ArrayList<>(List.of(range(Q, 0, 0, 1)));
    TaskAssignment a = new TaskAssignment(0, own);
    own.clear();
    assertEquals(1, a.ranges().size());
    assertThrows(UnsupportedOperationException.class, () -> a.ranges().clear());
    assertEquals(0, new TaskAssignment(1, List.of()).rowCount());
  }
}
