package io.ytstream.ports.contract;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.CommitOutcomeUnknownException;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.TransactionId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@code TabletTransactions} and {@code TabletTransaction}: snapshot reads,
 * buffered atomic writes, row-lock conflicts, the per-tablet row limit, leases and final states.
 */
public abstract class TabletTransactionContract extends PortContract {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private TabletTransaction start() {
    return cluster().transactions().start(TIMEOUT);
  }

  private YPath sortedTable(String name) {
    YPath table = path(name);
    fixture.createSortedTable(
        table, List.of(Columns.key("k", "int64"), Columns.value("v", "string")));
    return table;
  }

  private long offset(QueueSetup setup, int partition) {
    return cluster()
        .consumerOffsets()
        .read(setup.consumer(), setup.queue())
        .getOrDefault(setup.partition(partition), 0);
  }

  // ---- visibility and atomicity ----

  @Test
  void writesAreInvisibleUntilCommitThenAllVisible() {
    QueueSetup setup = queueWithConsumer("q", 1);
    YPath table = sortedTable("out");
    TabletTransaction tx = start();
    tx.insertRows(setup.queue().path(), List.of(queueRow(0, "a"), queueRow(0, "b")));
    tx.insertRows(table, List.of(Row.of("k", 1L, "v", "one")));
    tx.advanceConsumer(setup.consumer(), setup.partition(0), OptionalLong.of(0), 2);

    assertTrue(cluster().outputTables().readAll(setup.queue().path()).isEmpty());
    assertTrue(cluster().outputTables().readAll(table).isEmpty());
    assertEquals(0, offset(setup, 0));

    tx.commit();

    assertEquals(2, cluster().outputTables().readAll(setup.queue().path()).size());
    assertEquals(List.of(Row.of("k", 1L, "v", "one")), cluster().outputTables().readAll(table));
    assertEquals(2, offset(setup, 0));
  }

  @Test
  void ownWritesAreInvisibleToTheTransaction() {
    QueueSetup setup = queueWithConsumer("q", 1);
    TabletTransaction tx = start();

    tx.advanceConsumer(setup.consumer(), setup.partition(0), OptionalLong.of(0), 5);

    assertTrue(tx.readConsumer(setup.consumer(), setup.queue()).isEmpty());
    assertYtError(
        YtErrorCode.CONSUMER_OFFSET_CONFLICT,
        () -> tx.advanceConsumer(setup.consumer(), setup.partition(0), OptionalLong.of(5), 6));
    tx.abort();
  }

  @Test
  void readConsumerSeesTheStartSnapshot() {
    QueueSetup setup = queueWithConsumer("q", 1);
    cluster()
        .consumerOffsets()
        .advance(setup.consumer(), setup.partition(0), OptionalLong.empty(), 3);
    TabletTransaction tx = start();

    cluster()
        .consumerOffsets()
        .advance(setup.consumer(), setup.partition(0), OptionalLong.of(3), 8);

    assertEquals(
        StreamOffsets.ofQueue(setup.queue(), Map.of(0, 3L)),
        tx.readConsumer(setup.consumer(), setup.queue()));
    tx.abort();
  }

  @Test
  void abortDiscardsEverything() {
    QueueSetup setup = queueWithConsumer("q", 1);
    YPath table = sortedTable("out");
    TabletTransaction tx = start();
    tx.insertRows(setup.queue().path(), List.of(queueRow(0, "a")));
    tx.insertRows(table, List.of(Row.of("k", 1L, "v", "one")));
    tx.advanceConsumer(setup.consumer(), setup.partition(0), OptionalLong.of(0), 1);

    tx.abort();

    assertTrue(cluster().outputTables().readAll(setup.queue().path()).isEmpty());
    assertTrue(cluster().outputTables().readAll(table).isEmpty());
    assertEquals(0, offset(setup, 0));
  }

  @Test
  void sortedInsertUpsertsAndDeleteRemovesByKey() {
    YPath table = sortedTable("out");
    cluster()
        .outputTables()
        .upsert(table, List.of(Row.of("k", 1L, "v", "one"), Row.of("k", 2L, "v", "two")));
    TabletTransaction tx = start();

    tx.insertRows(table, List.of(Row.of("k", 1L, "v", "uno")));
    tx.deleteRows(table, List.of(Row.of("k", 2L)));
    tx.commit();

    assertEquals(List.of(Row.of("k", 1L, "v", "uno")), cluster().outputTables().readAll(table));
  }

  @Test
  void orderedInsertGoesToTheTabletNamedByTabletIndex() {
    QueueSetup setup = queueWithConsumer("q", 3);
    TabletTransaction tx = start();

    tx.insertRows(setup.queue().path(), List.of(queueRow(2, "x"), queueRow(0, "y")));
    tx.commit();

    assertEquals(List.of("y"), values(pullToEnd(setup, 0, 0, 10)));
    assertTrue(pullToEnd(setup, 1, 0, 10).isEmpty());
    assertEquals(List.of("x"), values(pullToEnd(setup, 2, 0, 10)));
  }

  // ---- conflicts ----

  @Test
  void twoTransactionsAdvancingOnePartitionConflictWith1700() {
    QueueSetup setup = queueWithConsumer("q", 1);
    TabletTransaction first = start();
    TabletTransaction second = start();
    first.advanceConsumer(setup.consumer(), setup.partition(0), OptionalLong.of(0), 5);
    second.advanceConsumer(setup.consumer(), setup.partition(0), OptionalLong.of(0), 5);
    second.insertRows(setup.queue().path(), List.of(queueRow(0, "from-second")));

    first.commit();

    assertYtError(YtErrorCode.TRANSACTION_LOCK_CONFLICT, second::commit);
    assertEquals(5, offset(setup, 0));
    assertTrue(
        cluster().outputTables().readAll(setup.queue().path()).isEmpty(),
        "a failed commit applies nothing");
  }

  @Test
  void staleSnapshotPassesTheOffsetCheckButTheCommitConflicts() {
    QueueSetup setup = queueWithConsumer("q", 1);
    TabletTransaction zombie = start();
    cluster()
        .consumerOffsets()
        .advance(setup.consumer(), setup.partition(0), OptionalLong.of(0), 5);

    // At the zombie's snapshot the offset is still 0, so the compare-and-set passes here...
    zombie.advanceConsumer(setup.consumer(), setup.partition(0), OptionalLong.of(0), 5);

    // ...and the row lock stops it at commit.
    assertYtError(YtErrorCode.TRANSACTION_LOCK_CONFLICT, zombie::commit);
    assertEquals(5, offset(setup, 0));
  }

  @Test
  void overlappingWritesOfOneSortedKeyConflict() {
    YPath table = sortedTable("out");
    TabletTransaction first = start();
    TabletTransaction second = start();
    first.insertRows(table, List.of(Row.of("k", 1L, "v", "first")));
    second.insertRows(table, List.of(Row.of("k", 1L, "v", "second")));

    second.commit();

    assertYtError(YtErrorCode.TRANSACTION_LOCK_CONFLICT, first::commit);
    assertEquals(List.of(Row.of("k", 1L, "v", "second")), cluster().outputTables().readAll(table));
  }

  @Test
  void differentKeysAndOrderedAppendsDoNotConflict() {
    QueueSetup setup = queueWithConsumer("q", 1);
    YPath table = sortedTable("out");
    TabletTransaction first = start();
    TabletTransaction second = start();
    first.insertRows(table, List.of(Row.of("k", 1L, "v", "a")));
    second.insertRows(table, List.of(Row.of("k", 2L, "v", "b")));
    first.insertRows(setup.queue().path(), List.of(queueRow(0, "a")));
    second.insertRows(setup.queue().path(), List.of(queueRow(0, "b")));

    first.commit();
    second.commit();

    assertEquals(2, cluster().outputTables().readAll(table).size());
    assertEquals(2, cluster().outputTables().readAll(setup.queue().path()).size());
  }

  @Test
  void sequentialTransactionsOnOneKeyDoNotConflict() {
    QueueSetup setup = queueWithConsumer("q", 1);
    TabletTransaction first = start();
    first.advanceConsumer(setup.consumer(), setup.partition(0), OptionalLong.of(0), 5);
    first.commit();

    TabletTransaction second = start();
    second.advanceConsumer(setup.consumer(), setup.partition(0), OptionalLong.of(5), 9);
    second.commit();

    assertEquals(9, offset(setup, 0));
  }

  @Test
  void staleOldOffsetFailsWith3100() {
    QueueSetup setup = queueWithConsumer("q", 1);
    cluster()
        .consumerOffsets()
        .advance(setup.consumer(), setup.partition(0), OptionalLong.empty(), 4);
    TabletTransaction tx = start();

    var error =
        assertYtError(
            YtErrorCode.CONSUMER_OFFSET_CONFLICT,
            () -> tx.advanceConsumer(setup.consumer(), setup.partition(0), OptionalLong.of(2), 6));
    assertTrue(
        error.getMessage().contains("expected offset 2, found offset 4"), error.getMessage());
    tx.abort();
  }

  // ---- row limit ----

  @Test
  void moreRowsThanTheLimitInOneTabletFailsWith1717AndAppliesNothing() {
    QueueSetup setup = queueWithConsumer("q", 2);
    int limit = fixture.useRowLimitPerTablet(5);
    TabletTransaction tx = start();
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i <= limit; i++) {
      rows.add(queueRow(0, "r" + i));
    }
    tx.insertRows(setup.queue().path(), rows);
    tx.advanceConsumer(setup.consumer(), setup.partition(1), OptionalLong.of(0), 1);

    assertYtError(YtErrorCode.TOO_MANY_ROWS_IN_TRANSACTION, tx::commit);
    assertTrue(cluster().outputTables().readAll(setup.queue().path()).isEmpty());
    assertEquals(0, offset(setup, 1));
  }

  @Test
  void theLimitCountsPerTablet() {
    QueueSetup setup = queueWithConsumer("q", 2);
    int limit = fixture.useRowLimitPerTablet(5);
    TabletTransaction tx = start();
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < limit; i++) {
      rows.add(queueRow(0, "a" + i));
      rows.add(queueRow(1, "b" + i));
    }
    tx.insertRows(setup.queue().path(), rows);

    assertDoesNotThrow(tx::commit);
    assertEquals(2L * limit, cluster().outputTables().readAll(setup.queue().path()).size());
  }

  @Test
  void sortedTableRowsCountTowardsTheLimit() {
    YPath table = sortedTable("out");
    int limit = fixture.useRowLimitPerTablet(5);
    TabletTransaction tx = start();
    List<Row> rows = new ArrayList<>();
    for (long k = 0; k <= limit; k++) {
      rows.add(Row.of("k", k, "v", "x"));
    }
    tx.insertRows(table, rows);

    assertYtError(YtErrorCode.TOO_MANY_ROWS_IN_TRANSACTION, tx::commit);
    assertTrue(cluster().outputTables().readAll(table).isEmpty());
  }

  // ---- final states ----

  @Test
  void commitTwiceFailsWith11003() {
    TabletTransaction tx = start();
    tx.commit();

    assertYtError(YtErrorCode.INVALID_TRANSACTION_STATE, tx::commit);
  }

  @Test
  void abortAfterCommitFailsWith11003() {
    TabletTransaction tx = start();
    tx.commit();

    assertYtError(YtErrorCode.INVALID_TRANSACTION_STATE, tx::abort);
  }

  @Test
  void commitAfterAbortFailsWith11003() {
    TabletTransaction tx = start();
    tx.abort();

    assertYtError(YtErrorCode.INVALID_TRANSACTION_STATE, tx::commit);
  }

  @Test
  void abortTwiceIsANoOp() {
    TabletTransaction tx = start();
    tx.abort();

    assertDoesNotThrow(tx::abort);
  }

  // ---- leases ----

  @Test
  void unusedTransactionExpiresAndEveryUseFailsWith11000() {
    assume(ClusterFixture.Capability.CONTROLLED_CLOCK);
    QueueSetup setup = queueWithConsumer("q", 1);
    TabletTransaction tx = cluster().transactions().start(Duration.ofSeconds(5));
    tx.insertRows(setup.queue().path(), List.of(queueRow(0, "lost")));

    fixture.elapse(Duration.ofSeconds(6));

    assertYtError(
        YtErrorCode.NO_SUCH_TRANSACTION,
        () -> tx.insertRows(setup.queue().path(), List.of(queueRow(0, "x"))));
    assertYtError(YtErrorCode.NO_SUCH_TRANSACTION, tx::ping);
    assertYtError(YtErrorCode.NO_SUCH_TRANSACTION, tx::commit);
    assertYtError(YtErrorCode.NO_SUCH_TRANSACTION, () -> cluster().transactions().attach(tx.id()));
    assertTrue(cluster().outputTables().readAll(setup.queue().path()).isEmpty());
  }

  @Test
  void pingAndUseRenewTheLease() {
    assume(ClusterFixture.Capability.CONTROLLED_CLOCK);
    QueueSetup setup = queueWithConsumer("q", 1);
    TabletTransaction tx = cluster().transactions().start(Duration.ofSeconds(5));

    fixture.elapse(Duration.ofSeconds(4));
    tx.ping();
    fixture.elapse(Duration.ofSeconds(4));
    tx.insertRows(setup.queue().path(), List.of(queueRow(0, "kept")));
    fixture.elapse(Duration.ofSeconds(4));
    tx.commit();

    assertEquals(1, cluster().outputTables().readAll(setup.queue().path()).size());
  }

  // ---- attach ----

  @Test
  void attachedHandleWritesIntoTheSameTransaction() {
    QueueSetup setup = queueWithConsumer("q", 1);
    TabletTransaction driver = start();
    TabletTransaction executor = cluster().transactions().attach(driver.id());
    assertEquals(driver.id(), executor.id());

    executor.insertRows(setup.queue().path(), List.of(queueRow(0, "from-executor")));
    assertTrue(cluster().outputTables().readAll(setup.queue().path()).isEmpty());
    driver.advanceConsumer(setup.consumer(), setup.partition(0), OptionalLong.of(0), 1);
    driver.commit();

    assertEquals(
        List.of(Row.of("value", "from-executor")),
        cluster().outputTables().readAll(setup.queue().path()));
    assertEquals(1, offset(setup, 0));
  }

  @Test
  void attachingToAnUnknownTransactionFailsWith11000() {
    assertYtError(
        YtErrorCode.NO_SUCH_TRANSACTION,
        () -> cluster().transactions().attach(new TransactionId("1-2-3-4")));
  }

  @Test
  void attachingToAFinishedTransactionFails() {
    TabletTransaction tx = start();
    tx.commit();

    assertThrows(
        io.ytstream.core.error.YtException.class,
        () -> cluster().transactions().attach(tx.id()).commit());
  }

  @Test
  void readConsumerOfAMissingConsumerFailsWith500() {
    QueueSetup setup = queueWithConsumer("q", 1);
    TabletTransaction tx = start();

    assertYtError(
        YtErrorCode.RESOLVE_ERROR,
        () -> tx.readConsumer(consumerId(path("absent")), setup.queue()));
    tx.abort();
  }

  // ---- unknown outcomes ----

  @Test
  void commitWithUnknownOutcomeThatLandedIsVisibleInTheConsumer() {
    assume(ClusterFixture.Capability.UNKNOWN_COMMIT_OUTCOME);
    QueueSetup setup = queueWithConsumer("q", 1);
    TabletTransaction tx = start();
    tx.insertRows(setup.queue().path(), List.of(queueRow(0, "x")));
    tx.advanceConsumer(setup.consumer(), setup.partition(0), OptionalLong.of(0), 1);
    fixture.failNextCommitWithUnknownOutcome(true);

    assertThrows(CommitOutcomeUnknownException.class, tx::commit);

    assertEquals(1, offset(setup, 0), "the consumer row tells that the commit landed");
    assertEquals(1, cluster().outputTables().readAll(setup.queue().path()).size());
  }

  @Test
  void commitWithUnknownOutcomeThatWasLostLeavesNoTrace() {
    assume(ClusterFixture.Capability.UNKNOWN_COMMIT_OUTCOME);
    QueueSetup setup = queueWithConsumer("q", 1);
    TabletTransaction tx = start();
    tx.insertRows(setup.queue().path(), List.of(queueRow(0, "x")));
    tx.advanceConsumer(setup.consumer(), setup.partition(0), OptionalLong.of(0), 1);
    fixture.failNextCommitWithUnknownOutcome(false);

    assertThrows(CommitOutcomeUnknownException.class, tx::commit);

    assertEquals(0, offset(setup, 0), "the consumer row tells that the commit did not land");
    assertTrue(cluster().outputTables().readAll(setup.queue().path()).isEmpty());
  }

  @Test
  void startGivesDistinctIds() {
    TabletTransaction first = start();
    TabletTransaction second = start();

    assertNotEquals(first.id(), second.id());
    first.abort();
    second.abort();
  }
}
