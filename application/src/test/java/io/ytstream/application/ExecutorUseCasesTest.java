package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.realtime.RowsCarriedToNextTask;
import io.ytstream.core.delivery.TaskAttemptEnd;
import io.ytstream.core.delivery.TaskAttemptEnd.Outcome;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.TabletTransaction;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The executor's use cases over the in-memory cluster: the transactional task writer, the write
 * job's verdict as the driver asks it, the real-time task's multiplexing on a time source of the
 * test's, and the exactly-once writer's keys.
 */
class ExecutorUseCasesTest {

  private static final YPath TABLE = YPath.of("//out");
  private static final YPath QUEUE = YPath.of("//q");
  private static final QueueId Q = QueueId.of("primary", "//q");
  private static final ConsumerId CONSUMER = ConsumerId.of("primary", "//c");
  private static final PartitionId P0 = new PartitionId(Q, 0);
  private static final PartitionId P1 = new PartitionId(Q, 1);

  private final InMemoryCluster cluster = new InMemoryCluster("primary", new ManualClock());

  /** Kept rows as a list, as Spark's row buffer keeps them (without its memory bound). */
  private static final class Kept implements TransactionalTaskWriter.KeptRows<Long> {
    final List<Long> rows = new ArrayList<>();
    String stopped;
    long stoppedAt;

    @Override
    public void add(Long row, long rowNumber) {
      if (stopped == null) {
        rows.add(row);
      }
    }

    @Override
    public void stop(String why, long rowNumber) {
      if (stopped == null) {
        stopped = why;
        stoppedAt = rowNumber;
      }
      rows.clear();
    }

    @Override
    public String stoppedBecause() {
      return stopped;
    }

    @Override
    public long stoppedAtRow() {
      return stoppedAt;
    }

    @Override
    public List<Long> rows() {
      return rows;
    }

    @Override
    public void release() {
      rows.clear();
    }
  }

  private TransactionalTaskWriter<Long> taskWriter(
      TabletTransaction tx, int partition, long limit, Kept kept) {
    return new TransactionalTaskWriter<>(
        new InsertIntoBatchTransaction(cluster.transactions(), (t, e) -> {}),
        tx.id(),
        7,
        TABLE,
        false,
        partition,
        3,
        2,
        limit,
        kept);
  }

  private List<Long> values(int tablet) {
    List<Long> out = new ArrayList<>();
    cluster.rows(TABLE, tablet, 0).forEach(r -> out.add((Long) r.get("v")));
    return out;
  }

  @Test
  void aTransactionalTaskCountsEachRowAtItsTabletAndInsertsTheKeptRowsAtItsCommit() {
    cluster.createOrderedTable(TABLE, List.of(new Column("v", "int64", false, false)), 3);
    TabletTransaction tx = cluster.transactions().start(Duration.ofSeconds(30));
    Kept kept = new Kept();
    TransactionalTaskWriter<Long> writer = taskWriter(tx, 1, 100, kept);
    for (long v = 0; v < 5; v++) {
      writer.write(v);
    }
    assertEquals(List.of(), values(0), "nothing is inserted before the commit");
    int[] told = {0};
    WriterReport report =
        writer.commit(
            (v, tablet) -> Row.of("$tablet_index", (long) tablet, "v", v), () -> told[0]++);
    tx.commit();

    assertEquals(1, told[0], "the engine hears once that inserts start");
    assertEquals(List.of(2L), values(0), "row 2 of task 1 is in tablet (1 + 2) mod 3");
    assertEquals(List.of(0L, 3L), values(1));
    assertEquals(List.of(1L, 4L), values(2));
    assertArrayEquals(new long[] {1, 2, 2}, report.rowsPerTablet());
    assertEquals(null, report.notKept());
    assertEquals(tx.id().value(), report.transactionId());
    assertTrue(kept.rows.isEmpty(), "the kept rows are released");
  }

  @Test
  void aTaskPastTheRowsPerTabletStopsKeepingInsertsNothingAndSaysWhy() {
    cluster.createOrderedTable(TABLE, List.of(new Column("v", "int64", false, false)), 3);
    TabletTransaction tx = cluster.transactions().start(Duration.ofSeconds(30));
    Kept kept = new Kept();
    TransactionalTaskWriter<Long> writer = taskWriter(tx, 0, 1, kept);
    for (long v = 0; v < 4; v++) {
      writer.write(v);
    }
    int[] told = {0};
    WriterReport report =
        writer.commit(
            (v, tablet) -> Row.of("$tablet_index", (long) tablet, "v", v), () -> told[0]++);
    tx.commit();

    assertEquals(0, told[0], "no insert starts");
    assertEquals(List.of(), values(0));
    assertArrayEquals(new long[] {2, 1, 1}, report.rowsPerTablet(), "every row still counted");
    assertEquals(
        "partition 0 stopped at row 3: its rows for one output tablet passed the limit of 1 per"
            + " transaction",
        report.notKept());
  }

  @Test
  void theWriteJobRefusesABatchWhoseTaskMayHaveLeftRowsBehindARetry() {
    BatchWriteJob clean = new BatchWriteJob();
    clean.taskEnded(new TaskAttemptEnd(0, Outcome.FAILED_BEFORE_INSERT, "a failed pull"));
    clean.taskEnded(new TaskAttemptEnd(0, Outcome.SUCCEEDED, "the retry"));
    clean.checkCommittable(3, "tx-1");

    BatchWriteJob lost = new BatchWriteJob();
    lost.taskEnded(new TaskAttemptEnd(1, Outcome.EXECUTOR_LOST, "attempt 0 of partition 1 lost"));
    lost.taskEnded(new TaskAttemptEnd(1, Outcome.SUCCEEDED, "the retry"));
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> lost.checkCommittable(3, "tx-2"));
    assertTrue(
        e.getMessage().startsWith("batch 3 was not committed: attempt 0 of partition 1 lost.")
            && e.getMessage().contains("tx-2"),
        e.getMessage());
  }

  /** The test's time: nothing moves unless a wait moves it. */
  private static final class StoppedTime implements RealTimeTask.TimeSource {
    long nanos;
    final List<Long> waits = new ArrayList<>();

    @Override
    public long nowMillis() {
      return nanos / 1_000_000L;
    }

    @Override
    public long nowNanos() {
      return nanos;
    }

    @Override
    public void park(long wait) {
      waits.add(wait);
      nanos += wait;
    }
  }

  private RealTimeTask task(
      RowsCarriedToNextTask carried, StoppedTime time, long start0, long start1) {
    return new RealTimeTask(
        "run",
        new TreeMap<>(Map.of(P0, start0, P1, start1)),
        carried,
        (p, s, rows) ->
            new ReadRealTimePartition(
                cluster.queueReader(), CONSUMER, p, s, rows, 2, DataLossPolicy.FAIL, l -> {}),
        time);
  }

  @Test
  void aRealTimeTaskTakesItsPartitionsInTurnWaitsWhenIdleAndLeavesWhatItDidNotHandOut()
      throws InterruptedIOException {
    cluster.createOrderedTable(QUEUE, List.of(new Column("v", "int64", false, true)), 2);
    cluster.createConsumer(CONSUMER.path());
    cluster.registerConsumer(QUEUE, CONSUMER.path(), true);
    cluster.appendToTablet(QUEUE, 0, List.of(Row.of("v", 0L), Row.of("v", 1L), Row.of("v", 2L)));
    cluster.appendToTablet(QUEUE, 1, List.of(Row.of("v", 5L)));
    RowsCarriedToNextTask carried = new RowsCarriedToNextTask();
    StoppedTime time = new StoppedTime();
    RealTimeTask task = task(carried, time, 0, 0);

    List<String> handed = new ArrayList<>();
    for (Optional<RealTimeTask.Handed> row = task.next(10); row.isPresent(); row = task.next(10)) {
      handed.add(row.get().partition().index() + ":" + row.get().row().rowIndex());
    }
    assertEquals(
        List.of("0:0", "1:0", "0:1", "0:2"),
        handed,
        "pulls of at most two rows, the partitions taking turns row by row");
    assertTrue(time.nowMillis() >= 10, "then idle up to the deadline");
    assertTrue(!time.waits.isEmpty(), "waiting, not spinning");
    assertTrue(
        time.waits.stream().allMatch(w -> w <= 500_000L),
        "short waits while rows came recently: " + time.waits);
    assertEquals(Map.of(P0, 3L, P1, 1L), task.offsets());

    cluster.appendToTablet(QUEUE, 0, List.of(Row.of("v", 3L), Row.of("v", 4L)));
    assertEquals(3, task.next(20).get().row().rowIndex(), "a pull of two, one handed out");
    task.close();

    RealTimeTask next = task(carried, new StoppedTime(), 4, 1);
    assertEquals(
        Map.of(P0, 1, P1, 0),
        next.carriedAtStart(),
        "row 4, pulled and not handed out, serves the next task that starts at 4");
    assertEquals(4, next.nextNow().get().row().rowIndex());
  }

  @Test
  void exactlyOnceKeysFillTheQueueOfAOneQueueStreamAndRefuseTwoRowsOnOneKey() {
    SourcePositionKeys keys =
        new SourcePositionKeys(
            "W",
            "//out",
            List.of(ServiceColumns.QUEUE, ServiceColumns.TABLET_INDEX, ServiceColumns.ROW_INDEX),
            "//q");
    Map<String, Object> first = new TreeMap<>();
    first.put(ServiceColumns.TABLET_INDEX, 1L);
    first.put(ServiceColumns.ROW_INDEX, 5L);
    Row out = keys.keyed(first, false);
    assertEquals("//q", out.get(ServiceColumns.QUEUE));

    Map<String, Object> other = new TreeMap<>(first);
    other.put(ServiceColumns.TABLET_INDEX, 2L);
    keys.keyed(other, false);
    Map<String, Object> again = new TreeMap<>(other);
    IllegalStateException same =
        assertThrows(IllegalStateException.class, () -> keys.keyed(again, false));
    assertTrue(same.getMessage().contains("posexplode"), same.getMessage());

    Map<String, Object> missing = new TreeMap<>();
    missing.put(ServiceColumns.TABLET_INDEX, 3L);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> keys.keyed(missing, false));
    assertTrue(e.getMessage().contains("include_service_columns"), e.getMessage());

    SourcePositionKeys noQueue =
        new SourcePositionKeys(
            "W", "//out", List.of(ServiceColumns.TABLET_INDEX, ServiceColumns.ROW_INDEX), null);
    IllegalArgumentException several =
        assertThrows(
            IllegalArgumentException.class, () -> noQueue.keyed(new TreeMap<>(first), true));
    assertTrue(several.getMessage().contains("several queues"), several.getMessage());
  }
}
