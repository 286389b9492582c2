package io.ytstream.inmemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.TabletTransaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Same calls on a manual clock give the same cluster: ids, timestamps, tablets, rows. */
class DeterminismTest {

  /** A scripted run; returns everything observable about it. */
  private static List<Object> run() {
    TestClusters t = new TestClusters("det", 3);
    InMemoryCluster cluster = t.cluster;
    List<Object> observed = new ArrayList<>();
    for (int batch = 0; batch < 5; batch++) {
      TabletTransaction tx = cluster.transactions().start(Duration.ofSeconds(30));
      observed.add(tx.id());
      List<Row> rows = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        rows.add(Row.of("value", "b" + batch + "r" + i)); // no $tablet_index
      }
      tx.insertRows(t.queue.path(), rows);
      tx.advanceConsumer(t.consumer, t.partition(0), OptionalLong.of(batch), batch + 1);
      tx.commit();
      t.clock.advanceMillis(batch % 2 == 0 ? 0 : 7);
    }
    for (int p = 0; p < 3; p++) {
      for (QueueRow row : cluster.queueReader().pull(t.consumer, t.partition(p), 0, 100)) {
        observed.add(
            List.of(
                row.tabletIndex(),
                row.rowIndex(),
                row.data(),
                row.timestamp().getAsLong(),
                row.cumulativeDataWeight().getAsLong()));
      }
    }
    observed.add(cluster.consumerOffsets().read(t.consumer, t.queue));
    return observed;
  }

  @Test
  void sameCallsGiveTheSameCluster() {
    assertEquals(run(), run());
  }

  @Test
  void rowsWithoutTabletIndexGoRoundRobin() {
    TestClusters t = new TestClusters("rr", 3);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      rows.add(Row.of("value", "r" + i));
    }

    t.cluster.outputTables().append(t.queue.path(), rows);

    assertEquals(
        List.of(Row.of("value", "r0"), Row.of("value", "r3"), Row.of("value", "r6")),
        t.cluster.outputTables().readAll(t.queue.path()).subList(0, 3));
    assertEquals(
        List.of(3L, 2L, 2L),
        t.cluster.partitions(t.queue.path()).stream().map(b -> b.totalRowCount()).toList());
  }

  @Test
  void timestampsIncreaseWhileTheClockStandsStill() {
    TestClusters t = new TestClusters("ts", 1);
    for (int i = 0; i < 3; i++) {
      t.cluster.outputTables().append(t.queue.path(), List.of(TestClusters.row(0, "v" + i)));
    }

    List<QueueRow> rows = t.cluster.queueReader().pull(t.consumer, t.partition(0), 0, 10);

    long previous = 0;
    for (QueueRow row : rows) {
      long ts = row.timestamp().getAsLong();
      assertTrue(ts > previous, "strictly increasing: " + ts + " after " + previous);
      assertTrue(ts >= t.clock.nowMillis() * 1000, "derived from the manual clock");
      previous = ts;
    }
  }
}
