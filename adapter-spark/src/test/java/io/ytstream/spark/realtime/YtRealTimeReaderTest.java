package io.ytstream.spark.realtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.realtime.IdleWait;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.DataLossException;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.InMemoryClusters;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.types.ArrivalTime;
import io.ytstream.spark.types.ColumnSpec;
import io.ytstream.spark.types.QueueRowConverter;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtType;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.connector.read.streaming.SupportsRealTimeRead.RecordStatus;
import org.junit.jupiter.api.Test;

/**
 * The real-time reader without Spark: both {@code nextWithTimeout} signatures (Spark 4.1's is
 * called directly here, since the build runs on 4.2), waiting, offsets, arrival time, data loss.
 */
class YtRealTimeReaderTest {

  private static final AtomicInteger COUNTER = new AtomicInteger();
  private static final List<ColumnSpec> COLUMNS =
      List.of(
          ColumnSpec.forRead("id", YtType.optional(YtPrimitive.INT64), false),
          ColumnSpec.forRead("payload", YtType.optional(YtPrimitive.STRING), false));

  private final String name = "rt-reader-" + COUNTER.incrementAndGet();
  private final InMemoryCluster cluster = InMemoryClusters.getOrCreate(name);
  private final PartitionId partition = new PartitionId(new QueueId(name, YPath.of("//q")), 0);
  private final ConsumerId consumer = new ConsumerId(name, YPath.of("//c"));

  YtRealTimeReaderTest() {
    cluster.createOrderedTable(
        YPath.of("//q"),
        List.of(
            new Column("id", "int64", false, false),
            new Column("payload", "string", false, false),
            new Column("$timestamp", "uint64", false, false)),
        1);
    cluster.createConsumer(YPath.of("//c"));
    cluster.registerConsumer(YPath.of("//q"), YPath.of("//c"), true);
  }

  private void produce(long from, long to) {
    List<Row> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(Row.of("$tablet_index", 0L, "id", id, "payload", "p" + id));
    }
    cluster.outputTables().append(YPath.of("//q"), rows);
  }

  private YtRealTimeReader reader(long start, boolean failOnDataLoss) {
    return reader(name, start, failOnDataLoss);
  }

  private YtRealTimeReader reader(String readId, long start, boolean failOnDataLoss) {
    return new YtRealTimeReader(
        InMemoryClusters.getOrCreate(name),
        readId,
        consumer,
        partition,
        start,
        new QueueRowConverter(COLUMNS, true, false),
        failOnDataLoss,
        System::currentTimeMillis);
  }

  private YtRealTimeReader readerOfATask(boolean killed) {
    return new YtRealTimeReader(
        InMemoryClusters.getOrCreate(name),
        name,
        consumer,
        new TreeMap<>(Map.of(partition, 0L)),
        new QueueRowConverter(COLUMNS, true, false),
        true,
        System::currentTimeMillis,
        () -> killed);
  }

  @Test
  void anInterruptionOfAKilledTaskEndsItsReadWithTheOffsetSoFarAndClearsTheFlag() throws Exception {
    produce(0, 2);
    YtRealTimeReader r = readerOfATask(true);
    long start = System.currentTimeMillis();
    assertTrue(r.nextWithTimeout(start, 5_000L).hasRecord());
    assertTrue(r.nextWithTimeout(start, 5_000L).hasRecord());
    Thread.currentThread().interrupt(); // Spark's kill, while the task waits for rows
    RecordStatus s = r.nextWithTimeout(start, 5_000L);
    long tookMs = System.currentTimeMillis() - start;
    assertFalse(s.hasRecord(), "the read ends as at its deadline");
    assertTrue(tookMs < 1_000, "at once, not at the deadline: " + tookMs + " ms");
    assertFalse(Thread.interrupted(), "the flag is cleared for the writer's close");
    assertEquals(new YtPartitionOffset(partition, 2), r.getOffset());
    r.close();
  }

  @Test
  void anInterruptionOfATaskNotKilledIsStillThrown() {
    YtRealTimeReader r = readerOfATask(false);
    Thread.currentThread().interrupt();
    try {
      assertThrows(
          InterruptedIOException.class,
          () -> r.nextWithTimeout(System.currentTimeMillis(), 5_000L));
    } finally {
      Thread.interrupted();
      r.close();
    }
  }

  @Test
  void aFailedPullOfAKilledTaskIsStillAFailure() {
    cluster.faults().failNext(ClusterOperation.PULL, 1, 1, "the proxy is down");
    YtRealTimeReader r = readerOfATask(true);
    try {
      assertThrows(
          RuntimeException.class, () -> r.nextWithTimeout(System.currentTimeMillis(), 5_000L));
    } finally {
      r.close();
      cluster.faults().clearPending();
    }
  }

  @Test
  void spark41SignatureReadsRowsThenTimesOutAndReportsTheNextOffset() throws Exception {
    produce(0, 3);
    YtRealTimeReader r = reader(1, true);
    List<Long> ids = new ArrayList<>();
    RecordStatus s;
    long before = System.nanoTime();
    while ((s = r.nextWithTimeout(150L)).hasRecord()) {
      ids.add(r.get().getLong(0));
      assertEquals(ids.get(ids.size() - 1), r.get().getLong(3), "row index column");
    }
    long waitedMs = (System.nanoTime() - before) / 1_000_000;
    assertEquals(List.of(1L, 2L), ids);
    assertTrue(waitedMs >= 140, "waited for the timeout when idle: " + waitedMs + " ms");
    assertEquals(new YtPartitionOffset(partition, 3), r.getOffset());
    r.close();
  }

  @Test
  void spark42SignatureWaitsUntilStartPlusTimeoutAndSeesRowsArrivingMeanwhile() throws Exception {
    YtRealTimeReader r = reader(0, true);
    long start = System.currentTimeMillis();
    Thread producer =
        new Thread(
            () -> {
              try {
                Thread.sleep(50);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              produce(0, 1);
            });
    producer.start();
    RecordStatus s = r.nextWithTimeout(start, 5_000L);
    long tookMs = System.currentTimeMillis() - start;
    producer.join();
    assertTrue(s.hasRecord());
    assertEquals(0L, r.get().getLong(0));
    assertTrue(tookMs < 1_000, "returned when the row came, not at the deadline: " + tookMs);
    // The queue declares $timestamp: the arrival time is the row's commit time.
    long arrival = s.recArrivalTime().orElseThrow();
    assertTrue(
        Math.abs(arrival - System.currentTimeMillis()) < 10_000, "arrival near now: " + arrival);
    // A deadline already past returns at once with no record.
    assertFalse(r.nextWithTimeout(System.currentTimeMillis() - 10, 5L).hasRecord());
    assertEquals(new YtPartitionOffset(partition, 1), r.getOffset());
    r.close();
  }

  /**
   * A task of {@code readId} pulls rows 0-4, hands out row 0 and ends; then {@code pulls} pulls
   * fail, so whatever a later task reads without failing comes from that task's pull.
   */
  private void taskLeavesRowsOneToFour(String readId, int pulls) {
    produce(0, 5);
    YtRealTimeReader first = reader(readId, 0, true);
    assertTrue(first.next(), "one pull brings rows 0-4, the task hands out row 0");
    first.close();
    cluster.faults().failNext(ClusterOperation.PULL, pulls, 1, "no pulls now");
  }

  @Test
  void rowsPulledButNotHandedOutGoToTheNextTaskOfTheSameReadWithoutAPull() throws Exception {
    taskLeavesRowsOneToFour("read-a", 10);
    YtRealTimeReader second = reader("read-a", 1, true);
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      assertTrue(second.nextWithTimeout(1_000L).hasRecord());
      ids.add(second.get().getLong(0));
    }
    assertEquals(List.of(1L, 2L, 3L, 4L), ids);
    assertEquals(0, cluster.faults().firedCount(ClusterOperation.PULL));
    assertEquals(new YtPartitionOffset(partition, 5), second.getOffset());
    second.close();
    cluster.faults().clearPending();
  }

  @Test
  void carriedRowsServeOnlyTheSameReadFromTheSameIndexAndOnlyOnce() {
    taskLeavesRowsOneToFour("read-b", 10);
    // Another query run (a restart) from the same index, and this run from another index, pull.
    assertThrows(RuntimeException.class, () -> reader("read-c", 1, true).next());
    assertThrows(RuntimeException.class, () -> reader("read-b", 2, true).next());
    // The rows were for one task only: the next one from index 1 pulls too.
    assertThrows(RuntimeException.class, () -> reader("read-b", 1, true).next());
    assertEquals(3, cluster.faults().firedCount(ClusterOperation.PULL));
    cluster.faults().clearPending();
  }

  @Test
  void aStoppedQueryRunsRowsAreDropped() {
    taskLeavesRowsOneToFour("read-d", 1);
    CarriedRows.forget("read-d");
    assertThrows(RuntimeException.class, () -> reader("read-d", 1, true).next());
    assertEquals(1, cluster.faults().firedCount(ClusterOperation.PULL));
  }

  @Test
  void idleWaitGrowsToAFewMillisecondsAndStartsShortAgain() {
    IdleWait w = new IdleWait();
    for (int i = 0; i < 10; i++) {
      w.backOff();
    }
    assertEquals(IdleWait.MAX_NANOS, w.nextNanos());
    w.reset();
    assertEquals(IdleWait.FIRST_NANOS, w.nextNanos());
  }

  @Test
  void idleWaitStaysUnderHalfAMillisecondWhileRowsCameRecentlyThenBacksOff() {
    IdleWait w = new IdleWait();
    long t = 1_000_000_000L;
    assertEquals(IdleWait.FIRST_NANOS, w.backOff(t), "no rows yet: the plain doubling");
    for (int i = 0; i < 10; i++) {
      w.backOff(t);
    }
    assertEquals(IdleWait.MAX_NANOS, w.backOff(t), "never any rows: up to the cap");
    w.rowsCame(t);
    assertEquals(IdleWait.FIRST_NANOS, w.backOff(t + 1_000));
    long[] waits = new long[8];
    for (int i = 0; i < waits.length; i++) {
      waits[i] = w.backOff(t + 2_000_000L);
    }
    assertEquals(200_000L, waits[0]);
    assertEquals(400_000L, waits[1]);
    assertEquals(IdleWait.ACTIVE_MAX_NANOS, waits[2], "0.8 ms held to 0.5 while rows are recent");
    assertEquals(IdleWait.ACTIVE_MAX_NANOS, waits[7]);
    assertEquals(
        IdleWait.MAX_NANOS,
        w.backOff(t + IdleWait.ACTIVE_FOR_NANOS),
        "quiet past the window: the doubled wait again");
  }

  @Test
  void idleWaitShortensAsTheDeadlineNearsSoRowsBeforeItGoOut() {
    IdleWait w = new IdleWait();
    for (int i = 0; i < 10; i++) {
      w.backOff();
    }
    assertEquals(IdleWait.MAX_NANOS, w.nextNanos());
    // Far from the deadline: the whole wait.
    assertEquals(IdleWait.MAX_NANOS, IdleWait.bounded(w.nextNanos(), 0, 100));
    // Near it: half the time left, so a row arriving meanwhile goes out in this batch.
    assertEquals(2_000_000L, IdleWait.bounded(w.nextNanos(), 96, 100));
    assertEquals(500_000L, IdleWait.bounded(w.nextNanos(), 99, 100));
    // Not shorter than the first wait, and never past the deadline.
    w.reset();
    assertEquals(IdleWait.FIRST_NANOS, IdleWait.bounded(w.nextNanos(), 99, 100));
    assertEquals(0L, IdleWait.bounded(w.nextNanos(), 100, 100));
    assertEquals(0L, IdleWait.bounded(w.nextNanos(), 101, 100));
  }

  @Test
  void trimmedRowsAreDataLossUnlessAllowed() throws Exception {
    produce(0, 5);
    cluster.trimRows(YPath.of("//q"), 0, 3);
    assertThrows(DataLossException.class, () -> reader(1, true).nextWithTimeout(100L));
    YtRealTimeReader skipping = reader(1, false);
    assertTrue(skipping.nextWithTimeout(100L).hasRecord());
    assertEquals(3L, skipping.get().getLong(0));
  }

  @Test
  void arrivalTimeUnderstandsBothTimestampLayouts() {
    long now = 1_800_000_000_000L;
    long ytsaurus = (1_799_999_990L << 30) | 12345;
    assertEquals(
        OptionalLong.of(1_799_999_990_000L), ArrivalTime.millis(OptionalLong.of(ytsaurus), now));
    assertEquals(
        OptionalLong.of(1_799_999_999_000L),
        ArrivalTime.millis(OptionalLong.of(1_799_999_999_000L * 1000 + 7), now));
    assertEquals(OptionalLong.empty(), ArrivalTime.millis(OptionalLong.of(42), now));
    assertEquals(OptionalLong.empty(), ArrivalTime.millis(OptionalLong.empty(), now));
  }
}
