package io.ytstream.spark.realtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The slot check counts the tasks of all yt sources planned on one query's thread. */
class RealTimeSlotsTest {

  private static List<PartitionId> partitions(String queue, int count) {
    QueueId q = new QueueId("local", YPath.of(queue));
    return IntStream.range(0, count).mapToObj(i -> new PartitionId(q, i)).toList();
  }

  /** One task per partition (real_time_partitions_per_task=1). */
  private static List<List<PartitionId>> tasks(String queue, int count) {
    return partitions(queue, count).stream().map(List::of).toList();
  }

  /** Blocks of {@code perTask} partitions, as the source plans them. */
  private static List<List<PartitionId>> tasks(String queue, int count, int perTask) {
    List<PartitionId> all = partitions(queue, count);
    List<List<PartitionId>> out = new ArrayList<>();
    for (int i = 0; i < count; i += perTask) {
      out.add(all.subList(i, Math.min(count, i + perTask)));
    }
    return out;
  }

  /** Runs on a fresh thread, as each run of a query has its own stream execution thread. */
  private static Throwable onQueryThread(Runnable planning) throws InterruptedException {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread t =
        new Thread(
            () -> {
              try {
                planning.run();
              } catch (RuntimeException e) {
                failure.set(e);
              }
            });
    t.start();
    t.join();
    return failure.get();
  }

  @Test
  void twoSourcesOfOneQueryNeedTheSumOfTheirPartitions() throws Exception {
    Object first = new Object();
    Object second = new Object();
    Throwable e =
        onQueryThread(
            () -> {
              RealTimeSlots.checkQuery(first, tasks("//q1", 2), 1, () -> 3, 0);
              RealTimeSlots.checkQuery(second, tasks("//q2", 2), 1, () -> 3, 0);
            });
    assertTrue(e instanceof IllegalStateException, String.valueOf(e));
    assertTrue(
        e.getMessage().contains("reads 4 partitions {//q1=2, //q2=2}")
            && e.getMessage().contains("has 3 task slots"),
        e.getMessage());
  }

  @Test
  void aSourceCheckedAgainReplacesItsOwnPartitions() throws Exception {
    Object source = new Object();
    assertNull(
        onQueryThread(
            () -> {
              RealTimeSlots.checkQuery(source, tasks("//q", 2), 1, () -> 2, 0);
              // the next batch of the same source: still 2 partitions, not 4
              RealTimeSlots.checkQuery(source, tasks("//q", 2), 1, () -> 2, 0);
            }));
  }

  @Test
  void eachRunOfAQueryCountsOnlyItsOwnSources() throws Exception {
    assertNull(
        onQueryThread(
            () -> RealTimeSlots.checkQuery(new Object(), tasks("//q", 2), 1, () -> 2, 0)));
    assertNull(
        onQueryThread(() -> RealTimeSlots.checkQuery(new Object(), tasks("//q", 2), 1, () -> 2, 0)),
        "a new run's thread does not see the old run's sources");
    assertThrows(
        IllegalStateException.class, () -> RealTimeSlots.check(partitions("//q", 3), () -> 2, 0));
  }

  @Test
  void theCheckCountsTasksNotPartitions() throws Exception {
    // 16 partitions at 4 per task: 4 tasks, which 4 slots hold.
    assertNull(
        onQueryThread(
            () -> RealTimeSlots.checkQuery(new Object(), tasks("//q", 16, 4), 4, () -> 4, 0)));
    // At 3 per task the same queue needs 6 tasks; the message names tasks and the option's fix.
    Throwable e =
        onQueryThread(
            () -> RealTimeSlots.checkQuery(new Object(), tasks("//q", 16, 3), 3, () -> 4, 0));
    assertTrue(e instanceof IllegalStateException, String.valueOf(e));
    String m = e.getMessage();
    assertTrue(
        m.contains("reads 16 partitions {//q=16} in 6 tasks (real_time_partitions_per_task=3)")
            && m.contains("has 4 task slots")
            && m.contains("leave 2 tasks' partitions unread")
            && m.contains("option real_time_partitions_per_task=4 runs 4 tasks"),
        m);
  }

  @Test
  void theFixSuggestedForAUnionFitsEverySourceTogether() throws Exception {
    Throwable e =
        onQueryThread(
            () -> {
              RealTimeSlots.checkQuery(new Object(), tasks("//q2", 4, 2), 2, () -> 3, 0);
              RealTimeSlots.checkQuery(new Object(), tasks("//q1", 8), 1, () -> 3, 0);
            });
    String m = e.getMessage();
    // 8 and 4 partitions on 3 slots: at 4 per task 2 + 1 tasks fit.
    assertTrue(
        m.contains("in 10 tasks (real_time_partitions_per_task per source: [1, 2])")
            && m.contains("option real_time_partitions_per_task=4 runs 3 tasks"),
        m);
    Throwable none =
        onQueryThread(
            () -> {
              RealTimeSlots.checkQuery(new Object(), tasks("//q1", 1), 1, () -> 1, 0);
              RealTimeSlots.checkQuery(new Object(), tasks("//q2", 1), 1, () -> 1, 0);
            });
    assertFalse(
        none.getMessage().contains("let each task read more"),
        "two sources need two tasks at least: no value of the option fits one slot");
  }

  @Test
  void onAPipelinedSparkTheFixCountsAShufflesTasksToo() throws Exception {
    // 3 source tasks on 2 slots, spark.sql.shuffle.partitions=2 on Spark 4.3: following the fix
    // for the source alone (3 slots) would run into Spark's own check for 5 tasks next.
    Throwable e =
        onQueryThread(
            () -> RealTimeSlots.checkQuery(new Object(), tasks("//q", 3), 1, () -> 2, 0, 2));
    assertTrue(e instanceof IllegalStateException, String.valueOf(e));
    assertTrue(
        e.getMessage().contains("spark.sql.shuffle.partitions=2 more slots per shuffle, 5 in all"),
        e.getMessage());
    // Before 4.3 (no shuffle tasks) the message says nothing of shuffles.
    Throwable before =
        onQueryThread(() -> RealTimeSlots.checkQuery(new Object(), tasks("//q", 3), 1, () -> 2, 0));
    assertFalse(before.getMessage().contains("shuffle"), before.getMessage());
    // Sources that fit pass: the shuffle's tasks are Spark's own check's to count.
    assertNull(
        onQueryThread(
            () -> RealTimeSlots.checkQuery(new Object(), tasks("//q", 2), 1, () -> 2, 0, 2)));
  }
}
