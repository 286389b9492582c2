package io.ytstream.ports.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.QueueRowBatch;
import io.ytstream.ports.Row;
import io.ytstream.ports.TabletTransaction;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The contract of {@code QueuePartitionReader} ({@code pull_queue_consumer}). */
public abstract class QueuePartitionReaderContract extends PortContract {

  @Test
  void pullReturnsRowsInOrderWithDenseRowIndexes() {
    QueueSetup setup = queueWithConsumer("q", 1);
    appendValues(setup.queue(), 0, "v", 5);

    List<QueueRow> rows = pullToEnd(setup, 0, 0, 100);

    assertEquals(List.of(0L, 1L, 2L, 3L, 4L), rowIndexes(rows));
    assertEquals(List.of("v0", "v1", "v2", "v3", "v4"), values(rows));
    rows.forEach(r -> assertEquals(0, r.tabletIndex()));
  }

  @Test
  void pullReturnsDataColumnsWithoutTabletIndex() {
    QueueSetup setup = queueWithConsumer("q", 1);
    appendValues(setup.queue(), 0, "v", 1);

    QueueRow row = cluster().queueReader().pull(setup.consumer(), setup.partition(0), 0, 10).get(0);

    assertEquals(Row.of("value", "v0"), row.data());
  }

  @Test
  void pullNeverReturnsMoreThanMaxRowsAndStartsAtTheOffset() {
    QueueSetup setup = queueWithConsumer("q", 1);
    appendValues(setup.queue(), 0, "v", 10);

    List<QueueRow> rows = cluster().queueReader().pull(setup.consumer(), setup.partition(0), 4, 3);

    assertFalse(rows.isEmpty(), "rows exist from offset 4, so the read must not be empty");
    assertTrue(rows.size() <= 3, "at most maxRows rows, got " + rows.size());
    assertEquals(4L, rows.get(0).rowIndex());
    assertEquals("v4", rows.get(0).data().get("value"));
  }

  @Test
  void loopingOverReadsYieldsEveryRowContiguously() {
    QueueSetup setup = queueWithConsumer("q", 1);
    appendValues(setup.queue(), 0, "a", 7);
    appendValues(setup.queue(), 0, "b", 6);

    List<QueueRow> rows = pullToEnd(setup, 0, 2, 4);

    assertEquals(11, rows.size());
    assertEquals(2L, rows.get(0).rowIndex());
    assertEquals(12L, rows.get(10).rowIndex());
    assertEquals("b5", rows.get(10).data().get("value"));
  }

  @Test
  void shortReadIsNotTheEndOfThePartition() {
    assume(ClusterFixture.Capability.SHORT_READS);
    QueueSetup setup = queueWithConsumer("q", 1);
    appendValues(setup.queue(), 0, "v", 10);
    fixture.limitRowsPerPull(3);

    List<QueueRow> first =
        cluster().queueReader().pull(setup.consumer(), setup.partition(0), 0, 10);
    List<QueueRow> second =
        cluster().queueReader().pull(setup.consumer(), setup.partition(0), 3, 10);

    assertEquals(3, first.size(), "the pull is short");
    assertEquals(List.of(3L, 4L, 5L), rowIndexes(second), "yet more rows follow");
    assertEquals(10, pullToEnd(setup, 0, 0, 10).size());
  }

  @Test
  void emptyOnlyAtTheEnd() {
    QueueSetup setup = queueWithConsumer("q", 1);
    assertTrue(
        cluster().queueReader().pull(setup.consumer(), setup.partition(0), 0, 10).isEmpty(),
        "an empty partition reads empty");

    appendValues(setup.queue(), 0, "v", 3);

    assertEquals(
        1, cluster().queueReader().pull(setup.consumer(), setup.partition(0), 2, 10).size());
    assertTrue(
        cluster().queueReader().pull(setup.consumer(), setup.partition(0), 3, 10).isEmpty(),
        "at the end");
    assertTrue(
        cluster().queueReader().pull(setup.consumer(), setup.partition(0), 50, 10).isEmpty(),
        "past the end");
  }

  @Test
  void trimmedOffsetStartsAtTheFirstSurvivingRowWithoutError() {
    QueueSetup setup = queueWithConsumer("q", 1);
    appendValues(setup.queue(), 0, "v", 6);
    fixture.trim(setup.queue().path(), 0, 4);

    List<QueueRow> rows = pullToEnd(setup, 0, 1, 10);

    assertEquals(List.of(4L, 5L), rowIndexes(rows), "rows 1..3 are gone; no error is raised");
    assertEquals(List.of("v4", "v5"), values(rows));
  }

  @Test
  void fullyTrimmedPartitionReadsEmpty() {
    QueueSetup setup = queueWithConsumer("q", 1);
    appendValues(setup.queue(), 0, "v", 3);
    fixture.trim(setup.queue().path(), 0, 3);

    assertTrue(cluster().queueReader().pull(setup.consumer(), setup.partition(0), 0, 10).isEmpty());
  }

  @Test
  void partitionsAreSeparate() {
    QueueSetup setup = queueWithConsumer("q", 2);
    appendValues(setup.queue(), 0, "zero", 2);
    appendValues(setup.queue(), 1, "one", 3);

    List<QueueRow> zero = pullToEnd(setup, 0, 0, 10);
    List<QueueRow> one = pullToEnd(setup, 1, 0, 10);

    assertEquals(List.of("zero0", "zero1"), values(zero));
    assertEquals(List.of("one0", "one1", "one2"), values(one));
    assertEquals(List.of(0L, 1L, 2L), rowIndexes(one), "row indexes are per tablet");
    one.forEach(r -> assertEquals(1, r.tabletIndex()));
  }

  @Test
  void unregisteredConsumerFailsWith901() {
    QueueSetup setup = queueWithConsumer("q", 1);
    YPath stranger = path("stranger");
    fixture.createConsumer(stranger);

    var error =
        assertYtError(
            YtErrorCode.AUTHORIZATION_ERROR,
            () -> cluster().queueReader().pull(consumerId(stranger), setup.partition(0), 0, 10));
    assertTrue(error.getMessage().contains("is not registered for queue"), error.getMessage());
  }

  @Test
  void aPullNeedsReadOnTheConsumerAndAReadWithoutOneReadOnTheQueue() {
    assume(ClusterFixture.Capability.ACCESS_CONTROL);
    QueueSetup setup = queueReadableOnlyBy("alice");
    register(setup);
    appendValues(setup.queue(), 0, "v", 2);

    int byConsumer =
        fixture
            .clusterAs("alice")
            .queueReader()
            .pull(setup.consumer(), setup.partition(0), 0, 10)
            .size();
    int byQueue =
        fixture.clusterAs("alice").queueRangeReader().pull(setup.partition(0), 0, 10).size();
    var denied =
        assertYtError(
            YtErrorCode.AUTHORIZATION_ERROR,
            () ->
                fixture
                    .clusterAs("bob")
                    .queueReader()
                    .pull(setup.consumer(), setup.partition(0), 0, 10));
    var deniedRange =
        assertYtError(
            YtErrorCode.AUTHORIZATION_ERROR,
            () -> fixture.clusterAs("bob").queueRangeReader().pull(setup.partition(0), 0, 10));

    assertEquals(2, byConsumer);
    assertEquals(2, byQueue);
    assertDeniedRead("bob", denied);
    assertDeniedRead("bob", deniedRange);
  }

  @Test
  void unregisteringStopsPulls() {
    QueueSetup setup = queueWithConsumer("q", 1);
    appendValues(setup.queue(), 0, "v", 1);
    assertEquals(
        1, cluster().queueReader().pull(setup.consumer(), setup.partition(0), 0, 10).size());

    fixture.unregisterConsumer(setup.queue().path(), setup.consumer().path());

    assertYtError(
        YtErrorCode.AUTHORIZATION_ERROR,
        () -> cluster().queueReader().pull(setup.consumer(), setup.partition(0), 0, 10));
  }

  @Test
  void negativeOffsetIsRejected() {
    QueueSetup setup = queueWithConsumer("q", 1);
    assertThrows(
        IllegalArgumentException.class,
        () -> cluster().queueReader().pull(setup.consumer(), setup.partition(0), -1, 10));
  }

  @Test
  void unknownQueueFails() {
    YPath consumer = path("c");
    fixture.createConsumer(consumer);
    YPath queue = path("q");
    fixture.createOrderedTable(queue, List.of(Columns.value("value", "string")), 1);
    fixture.registerConsumer(queue, consumer);
    var partition = new io.ytstream.core.model.PartitionId(queueId(path("absent")), 0);

    assertThrows(
        io.ytstream.core.error.YtException.class,
        () -> cluster().queueReader().pull(consumerId(consumer), partition, 0, 10),
        "an unknown queue is either unregistered (901) or unresolvable (500)");
  }

  @Test
  void uncommittedRowsAreInvisible() {
    QueueSetup setup = queueWithConsumer("q", 1);
    TabletTransaction tx = cluster().transactions().start(Duration.ofSeconds(30));
    tx.insertRows(setup.queue().path(), List.of(queueRow(0, "pending")));

    assertTrue(cluster().queueReader().pull(setup.consumer(), setup.partition(0), 0, 10).isEmpty());

    tx.commit();
    assertEquals(
        List.of("pending"),
        values(cluster().queueReader().pull(setup.consumer(), setup.partition(0), 0, 10)));
  }

  @Test
  void declaredSystemColumnsAreFilled() {
    YPath queue = path("q");
    YPath consumer = path("c");
    fixture.createOrderedTable(
        queue,
        List.of(
            Columns.value("value", "string"),
            Columns.value("$timestamp", "uint64"),
            Columns.value("$cumulative_data_weight", "int64")),
        1);
    fixture.createConsumer(consumer);
    fixture.registerConsumer(queue, consumer);
    QueueSetup setup = new QueueSetup(queueId(queue), consumerId(consumer));
    appendValues(setup.queue(), 0, "first", 2);
    appendValues(setup.queue(), 0, "second", 1);

    List<QueueRow> rows = pullToEnd(setup, 0, 0, 10);

    assertEquals(3, rows.size());
    rows.forEach(
        r -> assertTrue(r.timestamp().isPresent() && r.cumulativeDataWeight().isPresent()));
    assertEquals(
        rows.get(0).timestamp(), rows.get(1).timestamp(), "one transaction, one timestamp");
    assertTrue(
        rows.get(2).timestamp().getAsLong() > rows.get(1).timestamp().getAsLong(),
        "a later commit has a later timestamp");
    assertTrue(rows.get(0).cumulativeDataWeight().getAsLong() > 0);
    assertTrue(
        rows.get(1).cumulativeDataWeight().getAsLong()
            > rows.get(0).cumulativeDataWeight().getAsLong());
    assertTrue(
        rows.get(2).cumulativeDataWeight().getAsLong()
            > rows.get(1).cumulativeDataWeight().getAsLong());
    assertFalse(rows.get(0).data().has("$timestamp"), "system columns are not data");
  }

  @Test
  void aBatchPullHoldsTheRowsAPullKeepingTextBytesReturns() {
    YPath queue = path("q");
    YPath consumer = path("c");
    fixture.createOrderedTable(
        queue,
        List.of(
            Columns.value("value", "string"),
            Columns.value("$timestamp", "uint64"),
            Columns.value("$cumulative_data_weight", "int64")),
        1);
    fixture.createConsumer(consumer);
    fixture.registerConsumer(queue, consumer);
    QueueSetup setup = new QueueSetup(queueId(queue), consumerId(consumer));
    appendValues(setup.queue(), 0, "v", 4);

    List<QueueRow> rows =
        cluster().queueReader().pullKeepingTextBytes(setup.consumer(), setup.partition(0), 1, 10);
    QueueRowBatch batch =
        cluster()
            .queueReader()
            .pullBatchKeepingTextBytes(setup.consumer(), setup.partition(0), 1, 10);

    assertEquals(rows, batch.rows());
    assertEquals(3, batch.size());
    for (int i = 0; i < batch.size(); i++) {
      QueueRow row = rows.get(i);
      assertEquals(row.rowIndex(), batch.rowIndex(i));
      assertEquals(row.tabletIndex(), batch.tabletIndex(i));
      assertEquals(row.timestamp(), batch.timestamp(i));
      assertEquals(row.cumulativeDataWeight(), batch.cumulativeDataWeight(i));
      int at = batch.layout(i).positionOf("value");
      // By content: text bytes may be another array holding the same bytes.
      assertEquals(Row.of("value", row.data().get("value")), Row.of("value", batch.valueAt(i, at)));
    }
  }

  @Test
  void undeclaredSystemColumnsAreAbsent() {
    QueueSetup setup = queueWithConsumer("q", 1);
    appendValues(setup.queue(), 0, "v", 1);

    QueueRow row = cluster().queueReader().pull(setup.consumer(), setup.partition(0), 0, 10).get(0);

    assertTrue(row.timestamp().isEmpty());
    assertTrue(row.cumulativeDataWeight().isEmpty());
  }
}
