package io.ytstream.inmemory;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.CommitOutcomeUnknownException;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.MasterTransaction;
import io.ytstream.ports.ProducerPush;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.TabletTransaction;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class FaultInjectorTest {

  private final TestClusters t = new TestClusters("faults", 2);
  private final InMemoryCluster cluster = t.cluster;
  private final FaultInjector faults = cluster.faults();

  private long offset(int partition) {
    return cluster
        .consumerOffsets()
        .read(t.consumer, t.queue)
        .getOrDefault(t.partition(partition), 0);
  }

  @Test
  void failNextFailsExactlyNCallsThenRecovers() {
    cluster.outputTables().append(t.queue.path(), List.of(TestClusters.row(0, "a")));
    faults.failNext(ClusterOperation.PULL, 2, YtErrorCode.ROW_IS_BLOCKED, "row is blocked");

    for (int i = 0; i < 2; i++) {
      YtException error =
          assertThrows(
              YtException.class,
              () -> cluster.queueReader().pull(t.consumer, t.partition(0), 0, 10));
      assertEquals(YtErrorCode.ROW_IS_BLOCKED, error.code());
      assertTrue(error.getMessage().contains("row is blocked"));
    }

    assertEquals(1, cluster.queueReader().pull(t.consumer, t.partition(0), 0, 10).size());
    assertEquals(2, faults.firedCount(ClusterOperation.PULL));
    assertEquals(0, faults.pendingCount(ClusterOperation.PULL));
    assertEquals(
        List.of(
            new FiredFault(1, ClusterOperation.PULL, FaultKind.FAIL_BEFORE, 1712),
            new FiredFault(2, ClusterOperation.PULL, FaultKind.FAIL_BEFORE, 1712)),
        faults.fired());
  }

  @Test
  void skipNextLetsTheFaultHitALaterCall() {
    cluster.outputTables().append(t.queue.path(), List.of(TestClusters.row(0, "a")));
    faults.skipNext(ClusterOperation.PULL, 2);
    faults.failNext(ClusterOperation.PULL, 1, YtErrorCode.ROW_IS_BLOCKED, "third pull");

    assertEquals(1, cluster.queueReader().pull(t.consumer, t.partition(0), 0, 10).size());
    assertEquals(1, cluster.queueReader().pull(t.consumer, t.partition(0), 0, 10).size());
    assertThrows(
        YtException.class, () -> cluster.queueReader().pull(t.consumer, t.partition(0), 0, 10));
    assertEquals(1, cluster.queueReader().pull(t.consumer, t.partition(0), 0, 10).size());
    assertEquals(
        List.of(new FiredFault(1, ClusterOperation.PULL, FaultKind.FAIL_BEFORE, 1712)),
        faults.fired());
  }

  @Test
  void faultsOfOneOperationFireInScheduleOrderAndLeaveOthersAlone() {
    faults.failNext(ClusterOperation.PARTITIONS, 1, 1, "first");
    faults.failNext(ClusterOperation.PARTITIONS, 1, 2, "second");

    assertDoesNotThrow(() -> cluster.consumerOffsets().read(t.consumer, t.queue));
    assertEquals(
        1,
        assertThrows(YtException.class, () -> cluster.queueMetadata().partitions(t.queue)).code());
    assertEquals(
        2,
        assertThrows(YtException.class, () -> cluster.queueMetadata().partitions(t.queue)).code());
    assertEquals(2, cluster.queueMetadata().partitions(t.queue).size());
  }

  @Test
  void commitFailingBeforeArrivalLeavesTheTransactionUsable() {
    TabletTransaction tx = cluster.transactions().start(Duration.ofSeconds(30));
    tx.insertRows(t.queue.path(), List.of(TestClusters.row(0, "a")));
    faults.failNext(ClusterOperation.COMMIT, YtErrorCode.HTTP_SERVICE_UNAVAILABLE);

    assertThrows(YtException.class, tx::commit);
    assertTrue(cluster.outputTables().readAll(t.queue.path()).isEmpty());

    tx.commit();
    assertEquals(1, cluster.outputTables().readAll(t.queue.path()).size());
  }

  @Test
  void unknownOutcomeAfterApplyingCommitsAndThenTheTransactionIsCommitted() {
    TabletTransaction tx = cluster.transactions().start(Duration.ofSeconds(30));
    tx.advanceConsumer(t.consumer, t.partition(0), OptionalLong.of(0), 3);
    faults.unknownOutcomeAfterApplying(ClusterOperation.COMMIT, 1);

    assertThrows(CommitOutcomeUnknownException.class, tx::commit);

    assertEquals(3, offset(0));
    YtException retry = assertThrows(YtException.class, tx::commit);
    assertEquals(YtErrorCode.INVALID_TRANSACTION_STATE, retry.code());
    assertEquals(
        List.of(
            new FiredFault(
                1, ClusterOperation.COMMIT, FaultKind.UNKNOWN_OUTCOME_AFTER_APPLYING, 0)),
        faults.fired());
  }

  @Test
  void unknownOutcomeWithoutApplyingAbortsTheTransaction() {
    TabletTransaction tx = cluster.transactions().start(Duration.ofSeconds(30));
    tx.advanceConsumer(t.consumer, t.partition(0), OptionalLong.of(0), 3);
    faults.unknownOutcomeWithoutApplying(ClusterOperation.COMMIT, 1);

    assertThrows(CommitOutcomeUnknownException.class, tx::commit);

    assertEquals(0, offset(0));
    assertDoesNotThrow(tx::abort, "aborting an aborted transaction is a no-op");
    assertEquals(
        YtErrorCode.INVALID_TRANSACTION_STATE, assertThrows(YtException.class, tx::commit).code());
    assertTrue(cluster.liveTransactions().isEmpty());
  }

  @Test
  void realCommitErrorWinsOverAnUnknownOutcomeFault() {
    TabletTransaction zombie = cluster.transactions().start(Duration.ofSeconds(30));
    zombie.advanceConsumer(t.consumer, t.partition(0), OptionalLong.of(0), 3);
    cluster.consumerOffsets().advance(t.consumer, t.partition(0), OptionalLong.of(0), 3);
    faults.unknownOutcomeAfterApplying(ClusterOperation.COMMIT, 1);

    YtException error = assertThrows(YtException.class, zombie::commit);

    assertEquals(YtErrorCode.TRANSACTION_LOCK_CONFLICT, error.code());
    assertEquals(1, faults.firedCount(ClusterOperation.COMMIT));
  }

  @Test
  void singleCallCommitsCanHaveUnknownOutcomes() {
    faults.unknownOutcomeAfterApplying(ClusterOperation.ADVANCE, 1);
    faults.unknownOutcomeWithoutApplying(ClusterOperation.OUTPUT_APPEND, 1);

    assertThrows(
        CommitOutcomeUnknownException.class,
        () -> cluster.consumerOffsets().advance(t.consumer, t.partition(1), OptionalLong.of(0), 9));
    assertThrows(
        CommitOutcomeUnknownException.class,
        () -> cluster.outputTables().append(t.queue.path(), List.of(TestClusters.row(0, "x"))));

    assertEquals(9, offset(1), "the advance landed");
    assertTrue(cluster.outputTables().readAll(t.queue.path()).isEmpty(), "the append did not");
  }

  @Test
  void renameThatLandedButReportedAnErrorFailsOnRetry() {
    cluster.checkpoints().createDirectories(YPath.of("//cp"));
    cluster.checkpoints().writeFile(YPath.of("//cp/.0.tmp"), "x".getBytes(UTF_8), false);
    faults.failNextAfterApplying(ClusterOperation.CHECKPOINT_RENAME, 1, 1, "response lost");

    assertThrows(
        YtException.class,
        () -> cluster.checkpoints().rename(YPath.of("//cp/.0.tmp"), YPath.of("//cp/0")));

    assertArrayEquals("x".getBytes(UTF_8), cluster.checkpoints().readFile(YPath.of("//cp/0")));
    YtException retry =
        assertThrows(
            YtException.class,
            () -> cluster.checkpoints().rename(YPath.of("//cp/.0.tmp"), YPath.of("//cp/0")));
    assertEquals(YtErrorCode.RESOLVE_ERROR, retry.code());
  }

  @Test
  void faultKindsMustFitTheOperation() {
    assertThrows(
        IllegalArgumentException.class,
        () -> faults.unknownOutcomeAfterApplying(ClusterOperation.INSERT, 1));
    assertThrows(
        IllegalArgumentException.class,
        () -> faults.failNextAfterApplying(ClusterOperation.PULL, 1, 1, "reads change nothing"));
    assertThrows(
        IllegalArgumentException.class, () -> faults.failNext(ClusterOperation.PULL, 0, 1, "x"));
  }

  @Test
  void expireTransactionMakesEveryUseFailWith11000() {
    TabletTransaction tx = cluster.transactions().start(Duration.ofMinutes(5));

    faults.expireTransaction(tx.id());

    assertEquals(YtErrorCode.NO_SUCH_TRANSACTION, assertThrows(YtException.class, tx::ping).code());
    assertEquals(
        YtErrorCode.NO_SUCH_TRANSACTION,
        assertThrows(YtException.class, () -> cluster.transactions().attach(tx.id())).code());
    assertEquals(
        YtErrorCode.NO_SUCH_TRANSACTION, assertThrows(YtException.class, tx::abort).code());
  }

  @Test
  void trimPartitionSkipsRowsForReaders() {
    cluster
        .outputTables()
        .append(
            t.queue.path(),
            List.of(TestClusters.row(1, "a"), TestClusters.row(1, "b"), TestClusters.row(1, "c")));

    faults.trimPartition(t.queue.path(), 1, 2);

    assertEquals(
        2L, cluster.queueReader().pull(t.consumer, t.partition(1), 0, 10).get(0).rowIndex());
  }

  @Test
  void clearPendingDropsUnfiredFaults() {
    faults.failNext(ClusterOperation.DESCRIBE, 3, 1, "x");

    faults.clearPending();

    assertDoesNotThrow(() -> cluster.tableMetadata().describe(t.queue.path()));
    assertEquals(0, faults.firedCount(ClusterOperation.DESCRIBE));
  }

  @Test
  void everyOperationIsWiredToItsPortCall() {
    YPath dir = YPath.of("//cp");
    YPath file = dir.child("f");
    cluster.checkpoints().createDirectories(dir);
    cluster.checkpoints().writeFile(file, new byte[1], false);
    TabletTransaction tx = cluster.transactions().start(Duration.ofMinutes(1));
    Map<ClusterOperation, Executable> calls = new EnumMap<>(ClusterOperation.class);
    calls.put(
        ClusterOperation.PULL, () -> cluster.queueReader().pull(t.consumer, t.partition(0), 0, 1));
    calls.put(ClusterOperation.PARTITIONS, () -> cluster.queueMetadata().partitions(t.queue));
    calls.put(ClusterOperation.READ_CONSUMER, () -> tx.readConsumer(t.consumer, t.queue));
    calls.put(
        ClusterOperation.ADVANCE,
        () ->
            cluster.consumerOffsets().advance(t.consumer, t.partition(0), OptionalLong.empty(), 1));
    calls.put(
        ClusterOperation.TX_ADVANCE,
        () -> tx.advanceConsumer(t.consumer, t.partition(0), OptionalLong.empty(), 1));
    calls.put(ClusterOperation.START_TX, () -> cluster.transactions().start(Duration.ofMinutes(1)));
    calls.put(ClusterOperation.ATTACH_TX, () -> cluster.transactions().attach(tx.id()));
    calls.put(ClusterOperation.INSERT, () -> tx.insertRows(t.queue.path(), List.of()));
    calls.put(ClusterOperation.DELETE, () -> tx.deleteRows(t.consumer.path(), List.of()));
    calls.put(ClusterOperation.PING, tx::ping);
    calls.put(ClusterOperation.COMMIT, tx::commit);
    calls.put(ClusterOperation.ABORT, tx::abort);
    calls.put(
        ClusterOperation.OUTPUT_APPEND,
        () -> cluster.outputTables().append(t.queue.path(), List.of()));
    calls.put(
        ClusterOperation.OUTPUT_UPSERT,
        () -> cluster.outputTables().upsert(t.consumer.path(), List.of()));
    calls.put(ClusterOperation.OUTPUT_READ, () -> cluster.outputTables().readAll(t.queue.path()));
    YPath producer = YPath.of("//producer");
    cluster.createQueueProducer(producer);
    ProducerSessionId session = new ProducerSessionId(producer, t.queue.path(), "s");
    calls.put(
        ClusterOperation.PRODUCER_SESSION, () -> cluster.queueProducers().createSession(session));
    calls.put(
        ClusterOperation.PRODUCER_PUSH,
        () -> cluster.queueProducers().push(ProducerPush.numberedFrom(session, 0, 0, List.of())));
    calls.put(
        ClusterOperation.TX_PRODUCER_PUSH,
        () ->
            cluster
                .queueProducers()
                .push(ProducerPush.numberedFrom(session, 0, 0, List.of()), tx.id()));
    calls.put(ClusterOperation.DESCRIBE, () -> cluster.tableMetadata().describe(t.queue.path()));
    calls.put(
        ClusterOperation.CHECKPOINT_MKDIRS, () -> cluster.checkpoints().createDirectories(dir));
    calls.put(
        ClusterOperation.CHECKPOINT_WRITE,
        () -> cluster.checkpoints().writeFile(file, new byte[1], true));
    calls.put(ClusterOperation.CHECKPOINT_READ, () -> cluster.checkpoints().readFile(file));
    calls.put(
        ClusterOperation.CHECKPOINT_RENAME,
        () -> cluster.checkpoints().rename(file, dir.child("g")));
    calls.put(ClusterOperation.CHECKPOINT_LIST, () -> cluster.checkpoints().list(dir));
    calls.put(ClusterOperation.CHECKPOINT_DELETE, () -> cluster.checkpoints().delete(file, false));
    calls.put(ClusterOperation.CHECKPOINT_STATUS, () -> cluster.checkpoints().status(file));
    YPath staticTable = YPath.of("//static");
    cluster.createStaticTable(staticTable, List.of(new Column("v", "string", false, false)));
    MasterTransaction master = cluster.staticTableAppends().start(Duration.ofMinutes(1));
    calls.put(
        ClusterOperation.MASTER_START,
        () -> cluster.staticTableAppends().start(Duration.ofMinutes(1)));
    calls.put(
        ClusterOperation.MASTER_ATTACH, () -> cluster.staticTableAppends().attach(master.id()));
    calls.put(
        ClusterOperation.STATIC_APPEND,
        () -> master.append(staticTable, List.of(Row.of("v", "x")).iterator()));
    calls.put(ClusterOperation.STATIC_READ, () -> master.readAll(staticTable));
    calls.put(ClusterOperation.ATTRIBUTE_READ, () -> master.attribute(staticTable, "a"));
    calls.put(ClusterOperation.ATTRIBUTE_SET, () -> master.setAttribute(staticTable, "a", 1L));
    calls.put(ClusterOperation.MASTER_PING, master::ping);
    calls.put(ClusterOperation.MASTER_COMMIT, master::commit);
    calls.put(ClusterOperation.MASTER_ABORT, master::abort);
    calls.put(
        ClusterOperation.TABLE_NODE_DESCRIBE,
        () -> cluster.staticTableAppends().describe(staticTable));
    assertEquals(ClusterOperation.values().length, calls.size(), "a call for every operation");

    for (Map.Entry<ClusterOperation, Executable> call : calls.entrySet()) {
      faults.failNext(call.getKey(), 1, 4242, "boom");
      YtException error = assertThrows(YtException.class, call.getValue(), call.getKey().name());
      assertEquals(4242, error.code(), call.getKey().name());
      assertEquals(1, faults.firedCount(call.getKey()), call.getKey().name());
    }
    assertDoesNotThrow(tx::commit, "no fault had any effect");
    assertDoesNotThrow(master::commit, "nor on the master transaction");
    assertEquals(List.of(), cluster.staticTableAppends().readAll(staticTable));
  }
}
