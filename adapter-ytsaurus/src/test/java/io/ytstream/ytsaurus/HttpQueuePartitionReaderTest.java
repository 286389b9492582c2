package io.ytstream.ytsaurus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.contract.Columns;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The adapter loops over short pulls (reference 3.1) until it has the rows asked for. */
class HttpQueuePartitionReaderTest {

  @Test
  void shortPullsAreLoopedOverUntilMaxRowsOrTheEnd() {
    try (YtEmulator emulator = YtEmulator.start()) {
      AtomicInteger pulls = new AtomicInteger();
      try (YtsaurusCluster cluster =
          YtsaurusCluster.connect(
              YtsaurusClientConfig.of(emulator.url(), Optional.empty())
                  .withRequestLogger(
                      r -> {
                        if (r.command().equals("pull_queue_consumer")) {
                          pulls.incrementAndGet();
                        }
                      }))) {
        HttpClusterAdmin admin = new HttpClusterAdmin(cluster);
        YPath queue = YPath.of("//home/q");
        YPath consumer = YPath.of("//home/c");
        admin.createOrderedTable(queue, List.of(Columns.value("value", "string")), 1);
        admin.createConsumer(consumer);
        admin.register(queue, consumer);
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
          rows.add(Row.of("value", "v" + i));
        }
        cluster.outputTables().append(queue, rows);
        emulator.cluster().setMaxRowsPerPull(3);
        ConsumerId c = new ConsumerId("emulator", consumer);
        PartitionId p = new PartitionId(new QueueId("emulator", queue), 0);
        pulls.set(0);

        List<QueueRow> ten = cluster.queueReader().pull(c, p, 0, 10);
        int pullsForTen = pulls.getAndSet(0);
        List<QueueRow> rest = cluster.queueReader().pull(c, p, 10, 10);
        int pullsForRest = pulls.get();

        assertEquals(10, ten.size());
        assertEquals(9, ten.get(9).rowIndex());
        assertEquals(4, pullsForTen, "3 + 3 + 3 + 1 rows");
        assertEquals(2, rest.size());
        assertEquals(2, pullsForRest, "2 rows, then an empty read marks the end");
      }
    }
  }
}
