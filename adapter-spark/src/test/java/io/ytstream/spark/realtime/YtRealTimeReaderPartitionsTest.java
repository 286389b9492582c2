package io.ytstream.spark.realtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.InMemoryClusters;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.types.ColumnSpec;
import io.ytstream.spark.types.QueueRowConverter;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtType;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A real-time task that reads several queue partitions ({@code real_time_partitions_per_task}),
 * without Spark: rows of every partition, one offset carrying every partition, and a quiet
 * partition that neither holds a busy one back nor spins.
 */
class YtRealTimeReaderPartitionsTest {

  private static final AtomicInteger COUNTER = new AtomicInteger();
  private static final List<ColumnSpec> COLUMNS =
      List.of(
          ColumnSpec.forRead("id", YtType.optional(YtPrimitive.INT64), false),
          ColumnSpec.forRead("payload", YtType.optional(YtPrimitive.STRING), false));
  private static final int TABLETS = 4;
  private static final int WARM_UP_ROWS = 20;

  private final String name = "rt-reader-partitions-" + COUNTER.incrementAndGet();
  private final InMemoryCluster cluster = InMemoryClusters.getOrCreate(name);
  private final QueueId queue = new QueueId(name, YPath.of("//q"));
  private final ConsumerId consumer = new ConsumerId(name, YPath.of("//c"));

  YtRealTimeReaderPartitionsTest() {
    cluster.createOrderedTable(
        YPath.of("//q"),
        List.of(
            new Column("id", "int64", false, false),
            new Column("payload", "string", false, false),
            new Column("$timestamp", "uint64", false, false)),
        TABLETS);
    cluster.createConsumer(YPath.of("//c"));
    cluster.registerConsumer(YPath.of("//q"), YPath.of("//c"), true);
  }

  private PartitionId p(int index) {
    return new PartitionId(queue, index);
  }

  private void produce(int tablet, long from, long to) {
    List<Row> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(Row.of("$tablet_index", (long) tablet, "id", id, "payload", "p" + id));
    }
    cluster.outputTables().append(YPath.of("//q"), rows);
  }

  private YtRealTimeReader reader(String readId, Map<PartitionId, Long> starts) {
    return new YtRealTimeReader(
        InMemoryClusters.getOrCreate(name),
        readId,
        consumer,
        new TreeMap<>(starts),
        new QueueRowConverter(COLUMNS, true, false),
        true,
        System::currentTimeMillis);
  }

  @Test
  void aTaskOfSeveralPartitionsHandsOutEachPartitionsRowsInOrderAndReportsEveryPartition()
      throws Exception {
    produce(0, 0, 5);
    produce(1, 100, 103);
    produce(3, 300, 302);
    YtRealTimeReader r = reader(name, Map.of(p(0), 1L, p(1), 0L, p(2), 0L, p(3), 0L));
    Map<Long, List<Long>> idsByTablet = new TreeMap<>();
    while (r.nextWithTimeout(System.currentTimeMillis(), 300L).hasRecord()) {
      idsByTablet
          .computeIfAbsent(r.get().getLong(2), t -> new ArrayList<>())
          .add(r.get().getLong(0));
    }
    assertEquals(
        Map.of(0L, List.of(1L, 2L, 3L, 4L), 1L, List.of(100L, 101L, 102L), 3L, List.of(300L, 301L)),
        idsByTablet,
        "each partition's rows once, in its order; the quiet tablet 2 gives none");
    SortedMap<PartitionId, Long> next = ((YtPartitionOffset) r.getOffset()).next();
    assertEquals(Map.of(p(0), 5L, p(1), 3L, p(2), 0L, p(3), 2L), next, "quiet p2 at its start");
    r.close();
  }

  @Test
  void rowsPulledButNotHandedOutAreCarriedPerPartition() throws Exception {
    produce(0, 0, 3);
    produce(1, 100, 103);
    YtRealTimeReader first = reader("carry-" + name, Map.of(p(0), 0L, p(1), 0L));
    // Two rows: one pull of each partition (in turn), a row of each handed out, the rest left.
    assertTrue(first.nextWithTimeout(System.currentTimeMillis(), 1_000L).hasRecord());
    assertTrue(first.nextWithTimeout(System.currentTimeMillis(), 1_000L).hasRecord());
    assertEquals(Map.of(p(0), 1L, p(1), 1L), first.pullCounts());
    assertEquals(Map.of(p(0), 1L, p(1), 1L), ((YtPartitionOffset) first.getOffset()).next());
    first.close();
    YtRealTimeReader second = reader("carry-" + name, Map.of(p(0), 1L, p(1), 1L));
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      assertTrue(second.next(), "carried rows need no pull");
      ids.add(second.get().getLong(0));
    }
    assertEquals(List.of(1L, 2L, 101L, 102L), ids.stream().sorted().toList());
    assertEquals(Map.of(p(0), 0L, p(1), 0L), second.pullCounts(), "served without a pull");
    second.close();
  }

  @Test
  void aQuietPartitionDoesNotHoldBackABusyOnesRows() throws Exception {
    // p0 gets a row every 2 ms; p1..p3 stay quiet for the whole batch.
    Map<Long, Long> producedAtNanos = new ConcurrentHashMap<>();
    int rows = 200;
    Thread producer =
        new Thread(
            () -> {
              for (long id = 0; id < rows; id++) {
                producedAtNanos.put(id, System.nanoTime());
                produce(0, id, id + 1);
                try {
                  Thread.sleep(2);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  return;
                }
              }
            });
    YtRealTimeReader r = reader(name, Map.of(p(0), 0L, p(1), 0L, p(2), 0L, p(3), 0L));
    long start = System.currentTimeMillis();
    long startNanos = System.nanoTime();
    producer.start();
    List<Long> waits = new ArrayList<>();
    int seen = 0;
    while (seen < rows && System.currentTimeMillis() - start < 20_000) {
      if (r.nextWithTimeout(start, 20_000L).hasRecord()) {
        long id = r.get().getLong(0);
        if (id >= WARM_UP_ROWS) {
          waits.add(System.nanoTime() - producedAtNanos.get(id));
        }
        seen++;
      }
    }
    producer.join();
    long elapsedMs = (System.nanoTime() - startNanos) / 1_000_000;
    assertEquals(rows, seen);
    // Each quiet partition costs one short pull at most every 4 ms once its wait has grown, so a
    // busy partition's row waits a few milliseconds (its own empty pulls' waits, up to 4 ms, and
    // the quiet ones' short pulls). Held back by a quiet partition, rows would wait for the
    // deadline (20 s). The bounds leave room for a loaded machine's pauses.
    List<Long> sorted = waits.stream().sorted().toList();
    long medianMs = sorted.get(sorted.size() / 2) / 1_000_000;
    long p90Ms = sorted.get(sorted.size() * 9 / 10) / 1_000_000;
    System.err.printf(
        Locale.ROOT,
        "busy partition beside 3 quiet ones: wait median %.2f ms, p90 %.2f ms; pulls %s in"
            + " %d ms%n",
        sorted.get(sorted.size() / 2) / 1e6,
        sorted.get(sorted.size() * 9 / 10) / 1e6,
        r.pullCounts(),
        elapsedMs);
    assertTrue(medianMs < 10 && p90Ms < 25, "waits: median " + medianMs + " ms, p90 " + p90Ms);
    Map<PartitionId, Long> pulls = r.pullCounts();
    for (int quiet = 1; quiet < TABLETS; quiet++) {
      long n = pulls.get(p(quiet));
      // Back off to one pull per 4 ms; a spin would pull thousands of times.
      assertTrue(n <= elapsedMs / 2 + 20, p(quiet) + " pulled " + n + " times in " + elapsedMs);
    }
    assertEquals(
        Map.of(p(0), (long) rows, p(1), 0L, p(2), 0L, p(3), 0L),
        ((YtPartitionOffset) r.getOffset()).next());
    r.close();
  }

  @Test
  void aTaskWhosePartitionsAreAllQuietParksInsteadOfSpinning() throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    assertTrue(threads.isCurrentThreadCpuTimeSupported());
    YtRealTimeReader r = reader(name, Map.of(p(0), 0L, p(1), 0L, p(2), 0L, p(3), 0L));
    long cpuBefore = threads.getCurrentThreadCpuTime();
    long wallBefore = System.nanoTime();
    assertFalse(r.nextWithTimeout(System.currentTimeMillis(), 600L).hasRecord());
    long cpu = threads.getCurrentThreadCpuTime() - cpuBefore;
    long wall = System.nanoTime() - wallBefore;
    assertTrue(wall >= 550_000_000L, "waited for the deadline: " + wall / 1_000_000 + " ms");
    assertTrue(
        cpu < wall / 4,
        "four idle partitions took " + cpu / 1_000_000 + " ms CPU in " + wall / 1_000_000 + " ms");
    r.close();
  }
}
