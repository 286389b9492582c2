package io.ytstream.ytsaurus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.QueueRowBatch;
import io.ytstream.ports.Row;
import io.ytstream.ports.TextSlice;
import io.ytstream.ports.contract.Columns;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * One {@code pull_queue_consumer} per port call; a short answer (the server caps a pull by rows and
 * data weight, {@code queue_rowset.cpp}) is passed on, and the caller's next pull continues after
 * it.
 */
class HttpQueuePartitionReaderTest {

  @Test
  void aShortPullIsPassedOnAndTheNextPullContinuesAfterIt() {
    try (YtEmulator emulator = YtEmulator.start()) {
      List<String> pulls = new ArrayList<>();
      try (YtsaurusCluster cluster =
          YtsaurusCluster.connect(
              YtsaurusClientConfig.of(emulator.url(), Optional.empty())
                  .withRequestLogger(
                      r -> {
                        if (r.command().equals("pull_queue_consumer")) {
                          pulls.add(r.parameters());
                        }
                      }))) {
        HttpClusterAdmin admin = new HttpClusterAdmin(cluster);
        YPath queue = YPath.of("//home/q");
        YPath consumer = YPath.of("//home/c");
        admin.createOrderedTable(queue, List.of(Columns.value("value", "string")), 1);
        admin.createConsumer(consumer);
        admin.register(queue, consumer);
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
          rows.add(Row.of("value", "v" + i));
        }
        cluster.outputTables().append(queue, rows);
        emulator.cluster().setMaxRowsPerPull(3);
        ConsumerId c = new ConsumerId("emulator", consumer);
        PartitionId p = new PartitionId(new QueueId("emulator", queue), 0);
        pulls.clear();

        List<QueueRow> first = cluster.queueReader().pull(c, p, 0, 10);
        List<QueueRow> second = cluster.queueReader().pull(c, p, 3, 10);
        List<QueueRow> end = cluster.queueReader().pull(c, p, 5, 10);

        assertEquals(List.of(0L, 1L, 2L), first.stream().map(QueueRow::rowIndex).toList());
        assertEquals(List.of(3L, 4L), second.stream().map(QueueRow::rowIndex).toList());
        assertTrue(end.isEmpty(), "empty only at the end");
        assertEquals(3, pulls.size(), "one request per call: " + pulls);
        assertTrue(pulls.get(0).contains("\"max_row_count\":10"), pulls.get(0));
        assertTrue(pulls.get(1).contains("\"offset\":3"), pulls.get(1));
      }
    }
  }

  @Test
  void aReadWithoutAConsumerIsOnePullQueueWithNoConsumerPath() {
    try (YtEmulator emulator = YtEmulator.start()) {
      List<String> commands = new ArrayList<>();
      try (YtsaurusCluster cluster =
          YtsaurusCluster.connect(
              YtsaurusClientConfig.of(emulator.url(), Optional.empty())
                  .withRequestLogger(
                      r -> {
                        if (r.command().startsWith("pull")) {
                          commands.add(r.command() + " " + r.parameters());
                        }
                      }))) {
        HttpClusterAdmin admin = new HttpClusterAdmin(cluster);
        YPath queue = YPath.of("//home/q");
        admin.createOrderedTable(
            queue,
            List.of(Columns.value("value", "string"), Columns.value("$timestamp", "uint64")),
            1);
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
          rows.add(Row.of("value", "v" + i));
        }
        cluster.outputTables().append(queue, rows);
        PartitionId p = new PartitionId(new QueueId("emulator", queue), 0);
        commands.clear();

        List<QueueRow> read = cluster.queueRangeReader().pull(p, 1, 10);

        assertEquals(List.of(1L, 2L, 3L), read.stream().map(QueueRow::rowIndex).toList());
        assertEquals("v1", read.get(0).data().get("value"));
        assertTrue(read.get(0).timestamp().isPresent(), "$timestamp is passed on");
        assertEquals(1, commands.size(), commands.toString());
        assertTrue(commands.get(0).startsWith("pull_queue {"), commands.get(0));
        assertTrue(!commands.get(0).contains("consumer_path"), commands.get(0));
      }
    }
  }

  @Test
  void aPullKeepingTextBytesGivesTheSameRowsWithTextAsItsUtf8Bytes() {
    try (YtEmulator emulator = YtEmulator.start();
        YtsaurusCluster cluster =
            YtsaurusCluster.connect(YtsaurusClientConfig.of(emulator.url(), Optional.empty()))) {
      HttpClusterAdmin admin = new HttpClusterAdmin(cluster);
      YPath queue = YPath.of("//home/q");
      YPath consumer = YPath.of("//home/c");
      admin.createOrderedTable(
          queue,
          List.of(
              Columns.value("id", "int64"),
              Columns.value("s", "string"),
              Columns.value("t", "utf8")),
          1);
      admin.createConsumer(consumer);
      admin.register(queue, consumer);
      cluster
          .outputTables()
          .append(
              queue,
              List.of(Row.of("id", 7L, "s", "caf\u00e9", "t", "x"), Row.of("id", -1L, "s", null)));
      ConsumerId c = new ConsumerId("emulator", consumer);
      PartitionId p = new PartitionId(new QueueId("emulator", queue), 0);

      List<QueueRow> decoded = cluster.queueReader().pull(c, p, 0, 10);
      List<QueueRow> kept = cluster.queueReader().pullKeepingTextBytes(c, p, 0, 10);

      assertEquals(2, kept.size());
      assertEquals("caf\u00e9", decoded.get(0).data().get("s"));
      assertArrayEquals(
          "caf\u00e9".getBytes(StandardCharsets.UTF_8),
          ((TextSlice) kept.get(0).data().get("s")).toBytes());
      assertArrayEquals(new byte[] {'x'}, ((TextSlice) kept.get(0).data().get("t")).toBytes());
      assertEquals(7L, kept.get(0).data().get("id"));
      assertEquals(null, kept.get(1).data().get("s"));
      for (int i = 0; i < 2; i++) {
        assertEquals(decoded.get(i).rowIndex(), kept.get(i).rowIndex());
        assertEquals(decoded.get(i).tabletIndex(), kept.get(i).tabletIndex());
        assertEquals(decoded.get(i).data().layout().names(), kept.get(i).data().layout().names());
      }
    }
  }

  @Test
  void aBatchPullHoldsTheSameRowsFlatWithInt64sUnboxedAndTextAsRangesOfTheAnswer() {
    try (YtEmulator emulator = YtEmulator.start();
        YtsaurusCluster cluster =
            YtsaurusCluster.connect(YtsaurusClientConfig.of(emulator.url(), Optional.empty()))) {
      HttpClusterAdmin admin = new HttpClusterAdmin(cluster);
      YPath queue = YPath.of("//home/q");
      YPath consumer = YPath.of("//home/c");
      admin.createOrderedTable(
          queue,
          List.of(
              Columns.value("id", "int64"),
              Columns.value("s", "string"),
              Columns.value("d", "double")),
          1);
      admin.createConsumer(consumer);
      admin.register(queue, consumer);
      cluster
          .outputTables()
          .append(
              queue,
              List.of(
                  Row.of("id", 7L, "s", "caf\u00e9", "d", 1.5),
                  Row.of("id", 8L, "s", null, "d", null),
                  Row.of("id", null, "s", "z", "d", 2.5)));
      ConsumerId c = new ConsumerId("emulator", consumer);
      PartitionId p = new PartitionId(new QueueId("emulator", queue), 0);

      List<QueueRow> kept = cluster.queueReader().pullKeepingTextBytes(c, p, 0, 10);
      QueueRowBatch batch = cluster.queueReader().pullBatchKeepingTextBytes(c, p, 0, 10);
      QueueRowBatch tail = cluster.queueReader().pullBatchKeepingTextBytes(c, p, 1, 1);

      assertEquals(kept, batch.rows());
      assertEquals(3, batch.size());
      int s = batch.layout(0).positionOf("s");
      assertEquals(5, batch.textLength(0, s));
      assertEquals(
          "caf\u00e9",
          new String(batch.textArray(0, s), batch.textOffset(0, s), 5, StandardCharsets.UTF_8));
      assertEquals(-1, batch.textLength(1, s), "a null text value has no range");
      assertEquals(null, batch.valueAt(1, s));
      int id = batch.layout(0).positionOf("id");
      // A null among the int64s: the column holds the port's values, boxed.
      assertEquals(7L, batch.valueAt(0, id));
      assertEquals(null, batch.valueAt(2, id));
      assertEquals(List.of(kept.get(1)), tail.rows(), "a pull's cap and offset are kept");
      assertEquals(1L, tail.rowIndex(0));
      assertTrue(tail.hasLongAt(0, tail.layout(0).positionOf("id")), "int64s held unboxed");
      assertEquals(8L, tail.longAt(0, tail.layout(0).positionOf("id")));
    }
  }
}
