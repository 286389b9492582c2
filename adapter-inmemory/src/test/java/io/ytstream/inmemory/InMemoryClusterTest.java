package io.ytstream.inmemory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.QueueRowBatch;
import io.ytstream.ports.Row;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.contract.Columns;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The admin API and the behaviour the contracts leave to the adapter. */
class InMemoryClusterTest {

  private final TestClusters t = new TestClusters("admin", 2);
  private final InMemoryCluster cluster = t.cluster;

  private static int code(Runnable call) {
    return assertThrows(YtException.class, call::run).code();
  }

  @Test
  void initialTrimmedRowCountsStartRowIndexes() {
    YPath queue = YPath.of("//home/recreated");
    cluster.createOrderedTable(queue, List.of(Columns.value("value", "string")), List.of(100L, 0L));
    cluster.registerConsumer(queue, t.consumer.path(), false);

    cluster.outputTables().append(queue, List.of(TestClusters.row(0, "a")));

    assertEquals(
        List.of(new PartitionBounds(0, 100, 101), new PartitionBounds(1, 0, 0)),
        cluster.partitions(queue));
    QueueRow row =
        cluster
            .queueReader()
            .pull(
                t.consumer,
                new io.ytstream.core.model.PartitionId(new QueueId("admin", queue), 0),
                0,
                10)
            .get(0);
    assertEquals(100L, row.rowIndex());
  }

  @Test
  void appendToTabletStoresWhatAnAppendWithTabletIndexStores() {
    TestClusters other = new TestClusters("admin", 2);
    YPath q = TestClusters.QUEUE;
    cluster.appendToTablet(q, 1, List.of(Row.of("value", "a"), Row.of("value", "b")));
    other
        .cluster
        .outputTables()
        .append(q, List.of(TestClusters.row(1, "a"), TestClusters.row(1, "b")));

    assertEquals(other.cluster.rows(q, 1, 0), cluster.rows(q, 1, 0));
    assertEquals(List.of(Row.of("value", "a"), Row.of("value", "b")), cluster.rows(q, 1, 0));
    assertEquals(other.cluster.partitions(q), cluster.partitions(q));
    YtException outside =
        assertThrows(
            YtException.class, () -> cluster.appendToTablet(q, 2, List.of(Row.of("value", "c"))));
    assertTrue(
        outside.getMessage().contains("Invalid $tablet_index 2 for table //home/q"),
        outside.getMessage());
    assertEquals(
        YtErrorCode.GENERIC,
        code(() -> cluster.appendToTablet(q, 0, List.of(Row.of("nope", "c")))));
    // A failed append applies nothing.
    assertEquals(
        List.of(new PartitionBounds(0, 0, 0), new PartitionBounds(1, 0, 2)), cluster.partitions(q));
  }

  @Test
  void creatingAnExistingNodeFailsWith501() {
    assertEquals(
        YtErrorCode.ALREADY_EXISTS,
        code(() -> cluster.createSortedTable(t.queue.path(), List.of(Columns.key("k", "int64")))));
    assertEquals(YtErrorCode.ALREADY_EXISTS, code(() -> cluster.createConsumer(t.consumer.path())));
    assertTrue(cluster.exists(YPath.of("//home")), "parents are created on the way");
  }

  @Test
  void registrationNeedsAQueueAndAConsumer() {
    YPath plainTable = YPath.of("//home/plain");
    cluster.createSortedTable(plainTable, List.of(Columns.key("k", "int64")));

    assertEquals(
        YtErrorCode.RESOLVE_ERROR,
        code(() -> cluster.registerConsumer(YPath.of("//home/none"), t.consumer.path(), true)));
    assertEquals(
        YtErrorCode.GENERIC,
        code(() -> cluster.registerConsumer(t.queue.path(), plainTable, true)));
    assertEquals(
        List.of(new ConsumerRegistration(t.queue.path(), t.consumer.path(), true)),
        cluster.registrations());
    assertTrue(cluster.unregisterConsumer(t.queue.path(), t.consumer.path()));
    assertFalse(cluster.unregisterConsumer(t.queue.path(), t.consumer.path()));
  }

  @Test
  void reshardOnlyGrowsAndTrimOnlyUpToTheEnd() {
    assertThrows(IllegalArgumentException.class, () -> cluster.reshard(t.queue.path(), 1));
    cluster.outputTables().append(t.queue.path(), List.of(TestClusters.row(0, "a")));

    assertEquals(YtErrorCode.GENERIC, code(() -> cluster.trimRows(t.queue.path(), 0, 2)));
    cluster.trimRows(t.queue.path(), 0, 1);
    assertEquals(new PartitionBounds(0, 1, 1), cluster.partitions(t.queue.path()).get(0));
  }

  @Test
  void writesAreCheckedAgainstTheSchema() {
    TabletTransaction tx = cluster.transactions().start(Duration.ofSeconds(30));
    YPath q = t.queue.path();

    assertEquals(YtErrorCode.GENERIC, code(() -> tx.insertRows(q, List.of(Row.of("nope", "x")))));
    assertEquals(YtErrorCode.GENERIC, code(() -> tx.insertRows(q, List.of(Row.of("value", 5L)))));
    assertEquals(
        YtErrorCode.GENERIC,
        code(() -> tx.insertRows(q, List.of(Row.of("value", "x", "$row_index", 3L)))));
    assertEquals(
        YtErrorCode.GENERIC, code(() -> tx.insertRows(q, List.of(TestClusters.row(2, "x")))));
    assertEquals(YtErrorCode.GENERIC, code(() -> tx.deleteRows(q, List.of(Row.of("value", "x")))));
    assertEquals(
        YtErrorCode.GENERIC,
        code(
            () ->
                tx.insertRows(
                    t.consumer.path(),
                    List.of(Row.of("queue_cluster", "admin", "queue_path", "//q")))),
        "required columns must be set");

    // The valid row of a batch with a bad one is not buffered either.
    assertEquals(
        YtErrorCode.GENERIC,
        code(() -> tx.insertRows(q, List.of(TestClusters.row(0, "ok"), Row.of("nope", "x")))));
    tx.commit();
    assertTrue(cluster.outputTables().readAll(q).isEmpty());
  }

  @Test
  void appendAndUpsertNeedTheRightKindOfTable() {
    assertEquals(
        YtErrorCode.GENERIC,
        code(() -> cluster.outputTables().append(t.consumer.path(), List.of())));
    assertEquals(
        YtErrorCode.GENERIC, code(() -> cluster.outputTables().upsert(t.queue.path(), List.of())));
  }

  @Test
  void sortedKeysOrderNullsFirstThenByUtf8Bytes() {
    YPath table = YPath.of("//home/sorted");
    cluster.createSortedTable(
        table, List.of(Columns.key("k", "string"), Columns.value("v", "int64")));

    cluster
        .outputTables()
        .upsert(
            table,
            List.of(
                Row.of("k", "\uFF21", "v", 4L), // fullwidth A: 3 UTF-8 bytes
                Row.of("k", "b", "v", 2L),
                Row.of("k", null, "v", 0L),
                Row.of("k", "\uD83D\uDE00", "v", 5L), // emoji: sorts after U+FF21 in UTF-8
                Row.of("k", "a", "v", 1L)));

    assertEquals(
        List.of(0L, 1L, 2L, 4L, 5L),
        cluster.outputTables().readAll(table).stream().map(r -> r.get("v")).toList());
  }

  @Test
  void bytesAndStringsAreTheSameKey() {
    YPath table = YPath.of("//home/sorted");
    cluster.createSortedTable(
        table, List.of(Columns.key("k", "string"), Columns.value("v", "int64")));

    cluster.outputTables().upsert(table, List.of(Row.of("k", "key", "v", 1L)));
    cluster
        .outputTables()
        .upsert(
            table,
            List.of(Row.of("k", "key".getBytes(java.nio.charset.StandardCharsets.UTF_8), "v", 2L)));

    assertEquals(1, cluster.outputTables().readAll(table).size());
    assertEquals(2L, cluster.outputTables().readAll(table).get(0).get("v"));
  }

  @Test
  void cumulativeDataWeightFollowsTheDocumentedRule() {
    cluster
        .outputTables()
        .append(t.queue.path(), List.of(TestClusters.row(0, "abc"), TestClusters.row(0, "")));

    List<QueueRow> rows = cluster.queueReader().pull(t.consumer, t.partition(0), 0, 10);

    // 1 per row + UTF-8 bytes of "abc" + 8 for each of the two declared system columns.
    assertEquals(1 + 3 + 16, rows.get(0).cumulativeDataWeight().getAsLong());
    assertEquals(20 + 1 + 0 + 16, rows.get(1).cumulativeDataWeight().getAsLong());
  }

  @Test
  void aPullKeepingTextBytesHandsEachRowsUtf8EncodedOnceAndAPlainPullStillStrings() {
    cluster
        .outputTables()
        .append(t.queue.path(), List.of(TestClusters.row(0, "héllo"), TestClusters.row(0, "")));

    List<QueueRow> bytes =
        cluster.queueReader().pullKeepingTextBytes(t.consumer, t.partition(0), 0, 10);
    List<QueueRow> again =
        cluster.queueReader().pullKeepingTextBytes(t.consumer, t.partition(0), 1, 10);
    List<QueueRow> plain = cluster.queueReader().pull(t.consumer, t.partition(0), 0, 10);

    byte[] first = (byte[]) bytes.get(0).data().get("value");
    assertTrue(
        Arrays.equals("héllo".getBytes(java.nio.charset.StandardCharsets.UTF_8), first),
        Arrays.toString(first));
    assertTrue(
        bytes.get(1).data().get("value") == again.get(0).data().get("value"),
        "a row's bytes are encoded once and handed again, not per pull");
    assertEquals("héllo", plain.get(0).data().get("value"));
    assertEquals(plain.get(1).rowIndex(), bytes.get(1).rowIndex());
  }

  @Test
  void aBatchPullHoldsTheRowsOfAListPullWithTextAndInt64sUnboxed() {
    cluster
        .outputTables()
        .append(
            t.queue.path(),
            List.of(
                TestClusters.row(0, "héllo"), TestClusters.row(0, ""), TestClusters.row(0, "x")));
    cluster.consumerOffsets().advance(t.consumer, t.partition(0), OptionalLong.empty(), 1);

    List<QueueRow> list =
        cluster.queueReader().pullKeepingTextBytes(t.consumer, t.partition(0), 1, 10);
    QueueRowBatch batch =
        cluster.queueReader().pullBatchKeepingTextBytes(t.consumer, t.partition(0), 1, 10);

    assertEquals(list, batch.rows());
    assertEquals(2, batch.size());
    for (int r = 0; r < batch.size(); r++) {
      QueueRow row = list.get(r);
      assertEquals(row.rowIndex(), batch.rowIndex(r));
      assertEquals(row.tabletIndex(), batch.tabletIndex(r));
      assertEquals(row.timestamp(), batch.timestamp(r));
      assertEquals(row.cumulativeDataWeight(), batch.cumulativeDataWeight(r));
      assertEquals(row.data().layout(), batch.layout(r));
      for (int c = 0; c < row.data().layout().size(); c++) {
        Object value = row.data().valueAt(c);
        if (value instanceof byte[] text) {
          assertEquals(text.length, batch.textLength(r, c));
          assertArrayEquals(text, batch.textArray(r, c));
          assertSame(
              batch.textArray(r, c),
              cluster
                  .queueReader()
                  .pullBatchKeepingTextBytes(t.consumer, t.partition(0), 1, 10)
                  .textArray(r, c),
              "a value's bytes are encoded once and handed to every pull");
          assertEquals(0, batch.textOffset(r, c));
        } else {
          assertEquals(-1, batch.textLength(r, c));
          assertEquals(value instanceof Long, batch.hasLongAt(r, c));
          if (value instanceof Long l) {
            assertEquals(l, batch.longAt(r, c));
          }
        }
      }
    }
    assertThrows(
        RuntimeException.class,
        () ->
            cluster
                .queueReader()
                .pullBatchKeepingTextBytes(
                    ConsumerId.of("primary", "//unregistered"), t.partition(0), 0, 10));
  }

  @Test
  void longTransactionKeepsItsSnapshotAcrossManyCommits() {
    cluster.consumerOffsets().advance(t.consumer, t.partition(0), OptionalLong.empty(), 1);
    TabletTransaction reader = cluster.transactions().start(Duration.ofMinutes(5));
    for (long offset = 2; offset < 50; offset++) {
      cluster
          .consumerOffsets()
          .advance(t.consumer, t.partition(0), OptionalLong.of(offset - 1), offset);
    }

    assertEquals(
        StreamOffsets.ofQueue(t.queue, Map.of(0, 1L)), reader.readConsumer(t.consumer, t.queue));
    reader.abort();
    assertEquals(
        StreamOffsets.ofQueue(t.queue, Map.of(0, 49L)),
        cluster.consumerOffsets().read(t.consumer, t.queue));
  }

  @Test
  void deleteInsideATransactionHidesTheRowOnlyAfterCommit() {
    YPath table = YPath.of("//home/sorted");
    cluster.createSortedTable(
        table, List.of(Columns.key("k", "int64"), Columns.value("v", "string")));
    cluster.outputTables().upsert(table, List.of(Row.of("k", 1L, "v", "x")));
    TabletTransaction tx = cluster.transactions().start(Duration.ofSeconds(30));

    tx.deleteRows(table, List.of(Row.of("k", 1L)));
    assertEquals(1, cluster.outputTables().readAll(table).size());
    tx.commit();

    assertTrue(cluster.outputTables().readAll(table).isEmpty());
    cluster.outputTables().upsert(table, List.of(Row.of("k", 1L, "v", "back")));
    assertEquals(List.of(Row.of("k", 1L, "v", "back")), cluster.outputTables().readAll(table));
  }

  @Test
  void aKeyWrittenByNoOneElseSinceTheStartCommitsBesideAnotherKeysWrite() {
    TabletTransaction first = cluster.transactions().start(Duration.ofSeconds(30));
    TabletTransaction second = cluster.transactions().start(Duration.ofSeconds(30));
    first.advanceConsumer(t.consumer, t.partition(0), OptionalLong.empty(), 1);
    second.advanceConsumer(t.consumer, t.partition(1), OptionalLong.empty(), 2);
    first.commit();
    second.commit(); // the table was written since it started, but not at its key

    TabletTransaction third = cluster.transactions().start(Duration.ofSeconds(30));
    third.advanceConsumer(t.consumer, t.partition(1), OptionalLong.of(2), 3);
    third.commit(); // started after every write: no conflict to look for
    assertTrue(cluster.liveTransactions().isEmpty());
  }

  @Test
  void failedCommitEndsTheTransaction() {
    TabletTransaction first = cluster.transactions().start(Duration.ofSeconds(30));
    TabletTransaction second = cluster.transactions().start(Duration.ofSeconds(30));
    first.advanceConsumer(t.consumer, t.partition(0), OptionalLong.empty(), 1);
    second.advanceConsumer(t.consumer, t.partition(0), OptionalLong.empty(), 2);
    first.commit();
    assertEquals(YtErrorCode.TRANSACTION_LOCK_CONFLICT, code(second::commit));

    second.abort(); // aborted by the failed commit: a no-op
    assertEquals(YtErrorCode.INVALID_TRANSACTION_STATE, code(second::commit));
    assertTrue(cluster.liveTransactions().isEmpty());
  }

  @Test
  void abandonedTransactionsLeaveThePoolWhenTheirLeaseLapses() {
    TabletTransaction abandoned = cluster.transactions().start(Duration.ofSeconds(5));
    t.clock.advance(Duration.ofSeconds(10));

    TabletTransaction next = cluster.transactions().start(Duration.ofSeconds(5));

    assertEquals(List.of(next.id()), cluster.liveTransactions());
    assertEquals(YtErrorCode.NO_SUCH_TRANSACTION, code(abandoned::commit));
  }

  @Test
  void portsRefuseIdsOfOtherClusters() {
    QueueId elsewhere = new QueueId("other", t.queue.path());
    ConsumerId consumerElsewhere = new ConsumerId("other", t.consumer.path());

    assertThrows(
        IllegalArgumentException.class, () -> cluster.queueMetadata().partitions(elsewhere));
    assertThrows(
        IllegalArgumentException.class,
        () -> cluster.consumerOffsets().read(consumerElsewhere, t.queue));
  }

  @Test
  void clusterNamesFollowTheCoreRule() {
    assertThrows(
        IllegalArgumentException.class, () -> new InMemoryCluster("a:b", new ManualClock()));
    assertThrows(IllegalArgumentException.class, () -> new InMemoryCluster("", new ManualClock()));
  }

  @Test
  void checkpointTimesComeFromTheInjectedClock() {
    t.clock.set(2_000_000_000_000L);
    cluster.checkpoints().createDirectories(YPath.of("//cp"));
    cluster.checkpoints().writeFile(YPath.of("//cp/0"), new byte[3], false);

    assertEquals(
        2_000_000_000_000L,
        cluster.checkpoints().status(YPath.of("//cp/0")).orElseThrow().modificationTimeMillis());
  }

  @Test
  void filesAreCopiedInAndOut() {
    cluster.checkpoints().createDirectories(YPath.of("//cp"));
    byte[] content = {1, 2, 3};
    cluster.checkpoints().writeFile(YPath.of("//cp/0"), content, false);
    content[0] = 9;

    byte[] read = cluster.checkpoints().readFile(YPath.of("//cp/0"));
    read[1] = 9;

    assertEquals("[1, 2, 3]", Arrays.toString(cluster.checkpoints().readFile(YPath.of("//cp/0"))));
  }

  @Test
  void manualClockNeverGoesBack() {
    ManualClock clock = new ManualClock(1000);
    clock.advance(Duration.ofMillis(5));
    assertEquals(1005, clock.nowMillis());
    assertThrows(IllegalArgumentException.class, () -> clock.set(1000));
    assertThrows(IllegalArgumentException.class, () -> clock.advanceMillis(-1));
  }
}
