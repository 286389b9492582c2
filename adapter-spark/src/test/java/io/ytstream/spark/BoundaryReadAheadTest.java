package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.core.schema.YtPrimitive;
import io.ytstream.core.schema.YtType;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.InMemoryClusters;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.connector.read.streaming.SupportsRealTimeRead.RecordStatus;
import org.junit.jupiter.api.Test;

/**
 * Reading on between two real-time batches, with the in-memory cluster and the real reader: rows
 * arriving after a task's deadline are read ahead and handed to the next task at that offset, and
 * to no other; only a task that ended at its deadline hands over; memory and time are bounded.
 */
class BoundaryReadAheadTest {

  private static final AtomicInteger COUNTER = new AtomicInteger();
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final String name = "read-ahead-" + COUNTER.incrementAndGet();
  private final InMemoryCluster cluster = InMemoryClusters.getOrCreate(name);
  private final PartitionId partition = new PartitionId(new QueueId(name, YPath.of("//q")), 0);
  private final ConsumerId consumer = new ConsumerId(name, YPath.of("//c"));
  private final ReadAheadKey key = new ReadAheadKey(name, Map.of(), consumer, partition);

  BoundaryReadAheadTest() {
    cluster.createOrderedTable(
        YPath.of("//q"),
        List.of(
            new Column("id", "int64", false, false),
            new Column("$timestamp", "uint64", false, false)),
        1);
    cluster.createConsumer(YPath.of("//c"));
    cluster.registerConsumer(YPath.of("//q"), YPath.of("//c"), true);
  }

  private void produce(long from, long to) {
    List<Row> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(Row.of("$tablet_index", 0L, "id", id));
    }
    cluster.outputTables().append(YPath.of("//q"), rows);
  }

  private YtRealTimeReader reader(BoundaryReadAhead pool, long start) {
    return new YtRealTimeReader(
        InMemoryClusters.getOrCreate(name),
        consumer,
        partition,
        start,
        new QueueRowConverter(
            List.of(ColumnSpec.forRead("id", YtType.optional(YtPrimitive.INT64), false)),
            false,
            false),
        true,
        System::currentTimeMillis,
        key,
        pool);
  }

  /** Reads until the reader's deadline, {@code ms} from now; returns the ids. */
  private static List<Long> readUntilDeadline(YtRealTimeReader r, long ms) throws Exception {
    List<Long> ids = new ArrayList<>();
    long deadline = System.currentTimeMillis() + ms;
    RecordStatus s;
    while ((s =
            r.nextWithTimeout(System.currentTimeMillis(), deadline - System.currentTimeMillis()))
        .hasRecord()) {
      ids.add(r.get().getLong(0));
    }
    return ids;
  }

  private static List<Long> ids(long from, long to) {
    List<Long> ids = new ArrayList<>();
    for (long id = from; id < to; id++) {
      ids.add(id);
    }
    return ids;
  }

  private BoundaryReadAhead pool(long lingerMs, int maxRows) {
    return new BoundaryReadAhead(lingerMs, maxRows, System::currentTimeMillis);
  }

  @Test
  void rowsArrivingBetweenTwoBatchesAreReadAheadAndGivenToTheNextTask() throws Exception {
    BoundaryReadAhead pool = pool(10_000, 100);
    produce(0, 3);
    YtRealTimeReader first = reader(pool, 0);
    assertEquals(ids(0, 3), readUntilDeadline(first, 100));
    first.close();
    assertEquals(1, pool.waiting(), "the partition is read on after the deadline");

    produce(3, 6);
    Await.until(WAIT, () -> pool.held(key) == 3, () -> "held " + pool.held(key));
    // From now on every pull fails: the next task's rows can only come from the read-ahead.
    cluster.faults().failNext(ClusterOperation.PULL, 1_000_000, 100, "pulls fail in this test");

    YtRealTimeReader next = reader(pool, 3);
    assertEquals(0, pool.waiting(), "claimed");
    List<Long> got = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      assertTrue(next.nextWithTimeout(System.currentTimeMillis(), 1_000L).hasRecord());
      got.add(next.get().getLong(0));
    }
    assertEquals(ids(3, 6), got);
    assertEquals(new YtPartitionOffset(partition, 6), next.getOffset());
  }

  @Test
  void aTaskStartingAtAnotherOffsetReadsForItselfAndTheRowsAreDropped() throws Exception {
    BoundaryReadAhead pool = pool(10_000, 100);
    produce(0, 3);
    YtRealTimeReader first = reader(pool, 0);
    assertEquals(ids(0, 3), readUntilDeadline(first, 100));
    first.close();
    produce(3, 6);
    Await.until(WAIT, () -> pool.held(key) == 3, () -> "held " + pool.held(key));

    // A retry of the batch from an earlier offset: rows 1..5, in order, none twice.
    YtRealTimeReader retry = reader(pool, 1);
    assertEquals(0, pool.waiting());
    assertEquals(ids(1, 6), readUntilDeadline(retry, 200));
  }

  @Test
  void aTaskThatEndedBeforeItsTimeOrWasInterruptedHandsNothingOver() throws Exception {
    BoundaryReadAhead pool = pool(10_000, 100);
    produce(0, 3);
    YtRealTimeReader failed = reader(pool, 0);
    assertTrue(failed.nextWithTimeout(System.currentTimeMillis(), 5_000L).hasRecord());
    failed.close(); // the task ended long before its batch's end: it failed or was killed
    assertEquals(0, pool.waiting());

    YtRealTimeReader interrupted = reader(pool, 0);
    readUntilDeadline(interrupted, 50);
    Thread.currentThread().interrupt();
    try {
      interrupted.close(); // the query stops: the task thread is interrupted
    } finally {
      assertTrue(Thread.interrupted());
    }
    assertEquals(0, pool.waiting());
  }

  @Test
  void aTaskWhoseTimeIsUpHandsOverThoughSparkNeverAskedPastItsEnd() throws Exception {
    // Spark's wrapper checks the batch's end itself and stops calling once it has passed: the
    // reader's last call returned a record, and close() comes after the end.
    BoundaryReadAhead pool = pool(10_000, 100);
    produce(0, 1);
    YtRealTimeReader r = reader(pool, 0);
    assertTrue(r.nextWithTimeout(System.currentTimeMillis(), 30L).hasRecord());
    Thread.sleep(60);
    r.close();
    assertEquals(1, pool.waiting());
    produce(1, 3);
    Await.until(WAIT, () -> pool.held(key) == 2, () -> "held " + pool.held(key));
    assertEquals(ids(1, 3), readUntilDeadline(reader(pool, 1), 100));
  }

  @Test
  void readAheadHoldsAtMostItsRowsAndTheTaskReadsTheRestItself() throws Exception {
    BoundaryReadAhead pool = pool(10_000, 5);
    YtRealTimeReader first = reader(pool, 0);
    assertEquals(List.of(), readUntilDeadline(first, 50));
    first.close();
    produce(0, 20);
    Await.until(WAIT, () -> pool.held(key) == 5, () -> "held " + pool.held(key));
    Thread.sleep(50);
    assertEquals(5, pool.held(key), "bounded");

    assertEquals(ids(0, 20), readUntilDeadline(reader(pool, 0), 300));
  }

  @Test
  void anUnclaimedReadAheadEndsAfterItsLinger() throws Exception {
    BoundaryReadAhead pool = pool(200, 100);
    produce(0, 2);
    YtRealTimeReader first = reader(pool, 0);
    assertEquals(ids(0, 2), readUntilDeadline(first, 50));
    first.close();
    assertEquals(1, pool.waiting());
    Await.until(WAIT, () -> pool.waiting() == 0, () -> "waiting " + pool.waiting());

    produce(2, 4);
    assertEquals(ids(2, 4), readUntilDeadline(reader(pool, 2), 200));
  }
}
