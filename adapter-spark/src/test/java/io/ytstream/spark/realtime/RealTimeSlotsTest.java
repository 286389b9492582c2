package io.ytstream.spark.realtime;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The slot check counts the partitions of all yt sources planned on one query's thread. */
class RealTimeSlotsTest {

  private static List<PartitionId> partitions(String queue, int count) {
    QueueId q = new QueueId("local", YPath.of(queue));
    return IntStream.range(0, count).mapToObj(i -> new PartitionId(q, i)).toList();
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
              RealTimeSlots.checkQuery(first, partitions("//q1", 2), () -> 3, 0);
              RealTimeSlots.checkQuery(second, partitions("//q2", 2), () -> 3, 0);
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
              RealTimeSlots.checkQuery(source, partitions("//q", 2), () -> 2, 0);
              // the next batch of the same source: still 2 partitions, not 4
              RealTimeSlots.checkQuery(source, partitions("//q", 2), () -> 2, 0);
            }));
  }

  @Test
  void eachRunOfAQueryCountsOnlyItsOwnSources() throws Exception {
    assertNull(
        onQueryThread(
            () -> RealTimeSlots.checkQuery(new Object(), partitions("//q", 2), () -> 2, 0)));
    assertNull(
        onQueryThread(
            () -> RealTimeSlots.checkQuery(new Object(), partitions("//q", 2), () -> 2, 0)),
        "a new run's thread does not see the old run's sources");
    assertThrows(
        IllegalStateException.class, () -> RealTimeSlots.check(partitions("//q", 3), () -> 2, 0));
  }
}
