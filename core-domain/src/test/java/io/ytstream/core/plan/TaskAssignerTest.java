package io.ytstream.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A batch's tasks: one per range, or ranges cut by {@code min_tasks} and {@code max_rows_per_task}.
 */
class TaskAssignerTest {

  private static final QueueId Q = QueueId.of("c", "//q");
  private static final PartitionId P0 = new PartitionId(Q, 0);
  private static final PartitionId P1 = new PartitionId(Q, 1);

  private static TaskSplit minTasks(int n) {
    return new TaskSplit(OptionalInt.of(n), OptionalLong.empty());
  }

  private static TaskSplit maxRows(long n) {
    return new TaskSplit(OptionalInt.empty(), OptionalLong.of(n));
  }

  private static List<OffsetRange> ranges(List<TaskAssignment> tasks) {
    List<OffsetRange> out = new ArrayList<>();
    for (TaskAssignment t : tasks) {
      assertEquals(out.size(), t.task(), "tasks are numbered in order");
      assertEquals(1, t.ranges().size(), "a task reads one range");
      out.add(t.ranges().get(0));
    }
    return out;
  }

  @Test
  void withoutASplitEveryNonEmptyRangeIsOneTask() {
    List<OffsetRange> batch =
        List.of(new OffsetRange(P0, 5, 105), new OffsetRange(P1, 7, 7), new OffsetRange(P1, 7, 9));
    assertEquals(
        List.of(new OffsetRange(P0, 5, 105), new OffsetRange(P1, 7, 9)),
        ranges(TaskAssigner.assign(batch, TaskSplit.none())));
    assertEquals(TaskAssigner.assign(batch, TaskSplit.none()), TaskAssigner.oneTaskPerRange(batch));
  }

  @Test
  void oneBackloggedPartitionIsCutIntoMinTasksEqualParts() {
    assertEquals(
        List.of(
            new OffsetRange(P0, 100, 125),
            new OffsetRange(P0, 125, 150),
            new OffsetRange(P0, 150, 175),
            new OffsetRange(P0, 175, 200)),
        ranges(TaskAssigner.assign(List.of(new OffsetRange(P0, 100, 200)), minTasks(4))));
  }

  @Test
  void aSmallRangeStaysWholeAndTheLargeOneTakesTheOtherTasks() {
    // P1's share of 4 tasks rounds to 0: whole, and P0 divides the 3 tasks left.
    assertEquals(
        List.of(
            new OffsetRange(P0, 0, 333),
            new OffsetRange(P0, 333, 666),
            new OffsetRange(P0, 666, 1000),
            new OffsetRange(P1, 0, 10)),
        ranges(
            TaskAssigner.assign(
                List.of(new OffsetRange(P0, 0, 1000), new OffsetRange(P1, 0, 10)), minTasks(4))));
  }

  @Test
  void minTasksMetByTheRangesCutsNothing() {
    List<OffsetRange> batch = List.of(new OffsetRange(P0, 0, 1000), new OffsetRange(P1, 0, 10));
    assertEquals(batch, ranges(TaskAssigner.assign(batch, minTasks(2))));
  }

  @Test
  void maxRowsPerTaskCutsARangeIntoEqualPartsUnderTheCap() {
    assertEquals(
        List.of(new OffsetRange(P0, 0, 3), new OffsetRange(P0, 3, 6), new OffsetRange(P0, 6, 10)),
        ranges(TaskAssigner.assign(List.of(new OffsetRange(P0, 0, 10)), maxRows(4))));
    assertEquals(
        List.of(new OffsetRange(P0, 0, 4), new OffsetRange(P0, 4, 8)),
        ranges(TaskAssigner.assign(List.of(new OffsetRange(P0, 0, 8)), maxRows(4))),
        "a range that is a multiple of the cap is cut at the cap");
  }

  @Test
  void aRangeNeverGetsMoreTasksThanRows() {
    assertEquals(
        List.of(new OffsetRange(P0, 0, 1), new OffsetRange(P0, 1, 2), new OffsetRange(P0, 2, 3)),
        ranges(TaskAssigner.assign(List.of(new OffsetRange(P0, 0, 3)), minTasks(10))));
  }

  @Test
  void hugeRangesDoNotOverflowTheShares() {
    long half = (Long.MAX_VALUE - 1) / 2;
    assertEquals(
        List.of(
            new OffsetRange(P0, 0, half),
            new OffsetRange(P0, half, Long.MAX_VALUE - 1),
            new OffsetRange(P1, 0, 1)),
        ranges(
            TaskAssigner.assign(
                List.of(new OffsetRange(P0, 0, Long.MAX_VALUE - 1), new OffsetRange(P1, 0, 1)),
                minTasks(3))));
  }

  /**
   * Over seeded batches and options: every row of the batch is read by exactly one task, a
   * partition's tasks follow each other in row order, no task passes the cap, and the same input
   * gives the same tasks. Then the same batch under other options (a batch Spark runs again after
   * the options changed): other tasks, the same rows, each once.
   */
  @Test
  void everyRowOnceInOrderUnderAnyOptionsAndAgainUnderChangedOptions() {
    Random random = new Random(20261207L);
    for (int round = 0; round < 2_000; round++) {
      List<OffsetRange> batch = new ArrayList<>();
      int partitions = 1 + random.nextInt(4);
      for (int p = 0; p < partitions; p++) {
        long lower = random.nextInt(1_000);
        long rows = random.nextInt(5) == 0 ? 0 : random.nextInt(random.nextBoolean() ? 50 : 5_000);
        batch.add(new OffsetRange(new PartitionId(Q, p), lower, lower + rows));
      }
      TaskSplit first = randomSplit(random);
      TaskSplit second = randomSplit(random);
      List<TaskAssignment> tasks = TaskAssigner.assign(batch, first);
      assertEquals(tasks, TaskAssigner.assign(List.copyOf(batch), first), "deterministic");
      checkCoversOnce(batch, tasks, first);
      checkCoversOnce(batch, TaskAssigner.assign(batch, second), second);
    }
  }

  private static TaskSplit randomSplit(Random random) {
    return new TaskSplit(
        random.nextBoolean() ? OptionalInt.of(1 + random.nextInt(16)) : OptionalInt.empty(),
        random.nextBoolean() ? OptionalLong.of(1 + random.nextInt(3_000)) : OptionalLong.empty());
  }

  private static void checkCoversOnce(
      List<OffsetRange> batch, List<TaskAssignment> tasks, TaskSplit split) {
    List<OffsetRange> read = ranges(tasks);
    int i = 0;
    long nonEmpty = batch.stream().filter(r -> !r.isEmpty()).count();
    for (OffsetRange range : batch) {
      if (range.isEmpty()) {
        continue;
      }
      long next = range.lower();
      while (next < range.upper()) {
        OffsetRange part = read.get(i++);
        assertEquals(range.partition(), part.partition(), split.describe());
        assertEquals(next, part.lower(), "the next part starts where the last ended");
        assertTrue(part.rowCount() > 0, "no empty task");
        split
            .maxRowsPerTask()
            .ifPresent(cap -> assertTrue(part.rowCount() <= cap, part + " over " + cap));
        next = part.upper();
      }
      assertEquals(range.upper(), next, "the parts end where the range ends");
    }
    assertEquals(read.size(), i, "no task beyond the batch's rows");
    assertTrue(read.size() >= nonEmpty, "at least one task per non-empty range");
    if (nonEmpty == 1 && split.minTasks().isPresent() && split.maxRowsPerTask().isEmpty()) {
      long rows = batch.stream().mapToLong(OffsetRange::rowCount).sum();
      assertEquals(
          Math.min(split.minTasks().getAsInt(), rows), read.size(), "one range: min_tasks");
    }
  }

  @Test
  void optionsBelowOneAreRefusedNamingTheOption() {
    IllegalArgumentException min =
        assertThrows(
            IllegalArgumentException.class,
            () -> new TaskSplit(OptionalInt.of(0), OptionalLong.empty()));
    assertTrue(min.getMessage().contains("min_tasks"), min.getMessage());
    IllegalArgumentException max =
        assertThrows(
            IllegalArgumentException.class,
            () -> new TaskSplit(OptionalInt.empty(), OptionalLong.of(0)));
    assertTrue(max.getMessage().contains("max_rows_per_task"), max.getMessage());
  }

  @Test
  void describeNamesTheOptionsSet() {
    assertEquals("", TaskSplit.none().describe());
    assertEquals(
        "min_tasks = 4 and max_rows_per_task = 1000",
        new TaskSplit(OptionalInt.of(4), OptionalLong.of(1000)).describe());
  }
}
