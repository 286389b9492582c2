package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.TaskAssignment;
import io.ytstream.core.plan.TaskSplit;
import io.ytstream.core.plan.TriggerLimit;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * A backlog of one partition read by several tasks: the source's tasks under {@code min_tasks} and
 * {@code max_rows_per_task} read each row of the batch once, a batch planned again by a restarted
 * source under other options reads the same rows, and Real-time Mode refuses the options.
 */
class StreamingSourceTaskSplitTest {

  private static final YPath QUEUE = YPath.of("//q");
  private static final QueueId Q = QueueId.of("primary", "//q");
  private static final ConsumerId CONSUMER = ConsumerId.of("primary", "//c");
  private static final PartitionId P0 = new PartitionId(Q, 0);

  private final InMemoryCluster cluster = new InMemoryCluster("primary", new ManualClock());

  private void queueWithRows(int rows) {
    cluster.createOrderedTable(QUEUE, List.of(new Column("v", "int64", false, true)), 1);
    cluster.createConsumer(CONSUMER.path());
    cluster.registerConsumer(QUEUE, CONSUMER.path(), true);
    List<Row> batch = new ArrayList<>();
    for (long v = 0; v < rows; v++) {
      batch.add(Row.of("v", v));
    }
    cluster.appendToTablet(QUEUE, 0, batch);
  }

  private StreamingSource source(TaskSplit split) {
    return InMemorySources.over(
        cluster,
        cluster.queueReader(),
        CONSUMER,
        Q,
        PlanLimits.of(1_000, DataLossPolicy.FAIL).withTaskSplit(split));
  }

  /**
   * The row indexes the tasks read, task by task, through the consumer as a streaming task reads.
   */
  private List<Long> readAll(List<TaskAssignment> tasks) {
    List<Long> values = new ArrayList<>();
    for (TaskAssignment task : tasks) {
      ReadRanges reader =
          ReadRanges.keepingTextBytes(
              cluster.queueReader(),
              cluster.queueMetadata(),
              CONSUMER,
              task.ranges(),
              7,
              DataLossPolicy.FAIL,
              loss -> {
                throw new AssertionError("no rows were trimmed: " + loss);
              });
      for (QueueRow row : reader.readAll()) {
        values.add(row.rowIndex());
      }
    }
    return values;
  }

  private static List<Long> zeroTo(int n) {
    List<Long> out = new ArrayList<>();
    for (long v = 0; v < n; v++) {
      out.add(v);
    }
    return out;
  }

  @Test
  void oneBackloggedPartitionIsReadByMinTasksTasksEachRowOnce() {
    queueWithRows(100);
    StreamingSource source = source(new TaskSplit(OptionalInt.of(4), OptionalLong.empty()));
    StreamOffsets start = StreamOffsets.of(Map.of(P0, 0L));
    StreamOffsets end = source.latestOffset(start, TriggerLimit.none(), 0).end();
    assertEquals(StreamOffsets.of(Map.of(P0, 100L)), end, "the split does not size the batch");

    List<TaskAssignment> tasks = source.planInputPartitions(start, end);

    assertEquals(
        List.of(
            new OffsetRange(P0, 0, 25),
            new OffsetRange(P0, 25, 50),
            new OffsetRange(P0, 50, 75),
            new OffsetRange(P0, 75, 100)),
        tasks.stream().flatMap(t -> t.ranges().stream()).toList());
    assertEquals(zeroTo(100), readAll(tasks));
  }

  @Test
  void aBatchRunAgainUnderChangedOptionsReadsTheSameRowsOnce() {
    queueWithRows(100);
    StreamOffsets start = StreamOffsets.of(Map.of(P0, 10L));
    StreamOffsets end = StreamOffsets.of(Map.of(P0, 90L));
    List<TaskAssignment> first =
        source(new TaskSplit(OptionalInt.of(3), OptionalLong.empty()))
            .planInputPartitions(start, end);
    // The restarted query's source, with other options, runs the logged batch again.
    List<TaskAssignment> again =
        source(new TaskSplit(OptionalInt.empty(), OptionalLong.of(15)))
            .planInputPartitions(start, end);

    assertEquals(3, first.size());
    assertEquals(6, again.size(), "80 rows at most 15 a task");
    List<Long> expected = zeroTo(90).subList(10, 90);
    assertEquals(expected, readAll(first));
    assertEquals(expected, readAll(again));
    assertEquals(
        1,
        source(TaskSplit.none()).planInputPartitions(start, end).size(),
        "without the options again: one task");
  }

  @Test
  void realTimeModeRefusesTheSplitNamingTheOptionsAndTheFix() {
    queueWithRows(10);
    StreamingSource source = source(new TaskSplit(OptionalInt.of(4), OptionalLong.of(1000)));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> source.prepareForRealTimeMode(Optional::empty, end -> {}, 1));
    assertTrue(
        e.getMessage().startsWith("options min_tasks = 4 and max_rows_per_task = 1000 split"),
        e.getMessage());
    assertTrue(e.getMessage().contains("Remove min_tasks and max_rows_per_task"), e.getMessage());
    assertTrue(e.getMessage().contains("micro-batch trigger"), e.getMessage());
  }
}
