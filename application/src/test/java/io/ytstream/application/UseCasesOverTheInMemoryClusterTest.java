package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.commit.CommitOutcome;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.DataLoss;
import io.ytstream.core.plan.DataLossException;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.RangesBetween;
import io.ytstream.core.plan.TriggerLimit;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.TabletTransaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The use cases over adapter-inmemory's cluster, one behaviour each. */
class UseCasesOverTheInMemoryClusterTest {

  private static final YPath QUEUE = YPath.of("//q");
  private static final YPath OUT = YPath.of("//out");
  private static final QueueId Q = QueueId.of("primary", "//q");
  private static final ConsumerId CONSUMER = ConsumerId.of("primary", "//c");

  private final InMemoryCluster cluster = new InMemoryCluster("primary", new ManualClock());

  /** The shipped micro-batch read of {@code ranges} over the cluster, text kept as bytes. */
  private ReadRanges readOf(
      List<OffsetRange> ranges, int pullRows, DataLossPolicy policy, LostRows onLoss) {
    return ReadRanges.keepingTextBytes(
        cluster.queueReader(), cluster.queueMetadata(), CONSUMER, ranges, pullRows, policy, onLoss);
  }

  private void queue(int partitions, int rowsEach) {
    cluster.createOrderedTable(QUEUE, List.of(new Column("v", "int64", false, true)), partitions);
    cluster.createConsumer(CONSUMER.path());
    cluster.registerConsumer(QUEUE, CONSUMER.path(), true);
    for (int p = 0; p < partitions; p++) {
      List<Row> rows = new ArrayList<>();
      for (long v = 0; v < rowsEach; v++) {
        rows.add(Row.of("v", v));
      }
      cluster.appendToTablet(QUEUE, p, rows);
    }
  }

  /** The consumer's offsets now (a missing row is offset 0). */
  private StreamOffsets consumerNow() {
    return cluster.consumerOffsets().read(CONSUMER, Q);
  }

  private PlanMicroBatch planner(long maxRows) {
    return new PlanMicroBatch(
        cluster.queueMetadata(), CONSUMER, List.of(Q), PlanLimits.of(maxRows, DataLossPolicy.FAIL));
  }

  @Test
  void aNewPartitionIsPlacedByABatchOfItsOwnBeforeItIsRead() {
    queue(1, 5);
    PlanMicroBatch planner = planner(100);
    StreamOffsets start = StreamOffsets.of(Map.of(new PartitionId(Q, 0), 5L));
    cluster.reshard(QUEUE, 2);
    cluster.appendToTablet(QUEUE, 1, List.of(Row.of("v", 1L), Row.of("v", 2L)));

    PlanMicroBatch.PlannedEnd placing =
        planner.plan(start, planner.readBounds(), consumerNow(), TriggerLimit.none(), 0, true);
    assertTrue(placing.placesNewPartitions());
    assertEquals(0L, placing.end().getOrDefault(new PartitionId(Q, 1), -1));
    assertEquals(List.of(), RangesBetween.of(start, placing.end()), "placed, nothing read");

    PlanMicroBatch.PlannedEnd next =
        planner.plan(
            placing.end(), planner.readBounds(), consumerNow(), TriggerLimit.none(), 0, true);
    assertEquals(
        List.of(new OffsetRange(new PartitionId(Q, 1), 0, 2)),
        RangesBetween.of(placing.end(), next.end()));
  }

  @Test
  void aTriggerIsSizedByItsTotalCapAndHeldBackBelowItsMinimum() {
    queue(2, 30);
    PlanMicroBatch planner = planner(100);
    StreamOffsets start =
        StreamOffsets.of(Map.of(new PartitionId(Q, 0), 0L, new PartitionId(Q, 1), 20L));
    TriggerLimit limit = new TriggerLimit(OptionalLong.of(8), OptionalLong.of(5), 60_000);

    // Backlogs 30 and 10 share the 8 rows 6:2.
    PlanMicroBatch.PlannedEnd sized =
        planner.plan(start, planner.readBounds(), consumerNow(), limit, 0, true);
    assertEquals(
        List.of(
            new OffsetRange(new PartitionId(Q, 0), 0, 6),
            new OffsetRange(new PartitionId(Q, 1), 20, 22)),
        RangesBetween.of(start, sized.end()));

    // 4 rows wait, fewer than 5: no batch until the delay passed since the last one.
    StreamOffsets nearEnd =
        StreamOffsets.of(Map.of(new PartitionId(Q, 0), 28L, new PartitionId(Q, 1), 28L));
    PlanMicroBatch.PlannedEnd held =
        planner.plan(nearEnd, planner.readBounds(), consumerNow(), limit, 59_999, true);
    assertTrue(held.heldBack());
    assertEquals(nearEnd, held.end());
    PlanMicroBatch.PlannedEnd due =
        planner.plan(nearEnd, planner.readBounds(), consumerNow(), limit, 60_000, true);
    assertEquals(
        4,
        RangesBetween.of(nearEnd, due.end()).stream().mapToLong(r -> r.upper() - r.lower()).sum());
  }

  @Test
  void rowsTrimmedBetweenPlanningAndReadingAreCountedWhenSkipped() {
    queue(1, 10);
    PartitionId p = new PartitionId(Q, 0);
    List<DataLoss> reported = new ArrayList<>();
    ReadRanges read =
        readOf(List.of(new OffsetRange(p, 2, 8)), 2, DataLossPolicy.SKIP_AND_REPORT, reported::add);
    cluster.trimRows(QUEUE, 0, 5);
    List<QueueRow> rows = read.readAll();
    assertEquals(List.of(5L, 6L, 7L), rows.stream().map(QueueRow::rowIndex).toList());
    assertEquals(List.of(new DataLoss(p, 2, 5)), reported);
  }

  @Test
  void aReadWalkingPullsByIndexSeesTheRowsAndLossesAReadRowByRowSees() {
    queue(1, 10);
    PartitionId p = new PartitionId(Q, 0);
    List<DataLoss> reported = new ArrayList<>();
    ReadRanges read =
        readOf(List.of(new OffsetRange(p, 2, 8)), 2, DataLossPolicy.SKIP_AND_REPORT, reported::add);
    cluster.trimRows(QUEUE, 0, 5);
    List<QueueRow> rows = new ArrayList<>();
    while (read.advance()) {
      rows.add(read.batch().row(read.index()));
      assertEquals(rows.get(rows.size() - 1).rowIndex(), read.batch().rowIndex(read.index()));
    }
    assertEquals(List.of(5L, 6L, 7L), rows.stream().map(QueueRow::rowIndex).toList());
    assertEquals(List.of(new DataLoss(p, 2, 5)), reported);
    assertEquals(false, read.advance(), "a finished read stays finished");
  }

  @Test
  void aReadAcrossTheClustersShortPullsSeesEveryRowOnceInOrder() {
    // 40,000 rows: more than two of the in-memory cluster's 16,384-row chunks, at whose ends a
    // pull stops short of the rows asked for, as a tablet node's does at a store's end.
    queue(1, 40_000);
    PartitionId p = new PartitionId(Q, 0);
    ReadRanges read =
        readOf(
            List.of(new OffsetRange(p, 100, 39_900)),
            10_000,
            DataLossPolicy.FAIL,
            loss -> {
              throw new AssertionError("no row is lost: " + loss);
            });
    long expected = 100;
    while (read.advance()) {
      assertEquals(expected, read.batch().rowIndex(read.index()));
      assertEquals(expected, read.batch().longAt(read.index(), 0));
      expected++;
    }
    assertEquals(39_900, expected);
  }

  @Test
  void rowsTrimmedBeforeReadingFailTheReadByDefault() {
    queue(1, 10);
    cluster.trimRows(QUEUE, 0, 4);
    ReadRanges read =
        readOf(
            List.of(new OffsetRange(new PartitionId(Q, 0), 0, 6)),
            100,
            DataLossPolicy.FAIL,
            loss -> {});
    DataLossException e = assertThrows(DataLossException.class, read::readAll);
    assertEquals(4, e.losses().get(0).lostRows());
  }

  @Test
  void theConsumerIsBroughtLevelAndFencedWhenAhead() {
    queue(2, 10);
    AdvanceConsumer advance = new AdvanceConsumer(cluster.consumerOffsets(), CONSUMER, List.of(Q));
    StreamOffsets end =
        StreamOffsets.of(Map.of(new PartitionId(Q, 0), 4L, new PartitionId(Q, 1), 6L));
    assertEquals(end, advance.bringLevel(end));
    assertEquals(end, advance.read());
    StreamOffsets older =
        StreamOffsets.of(Map.of(new PartitionId(Q, 0), 2L, new PartitionId(Q, 1), 6L));
    assertThrows(ConsumerFencedException.class, () -> advance.bringLevel(older));
    assertEquals(end, advance.read(), "a fenced catch-up moves nothing");
  }

  @Test
  void aTransactionalBatchCommitsOnceAndIsAlreadyAppliedTheSecondTime() {
    queue(1, 10);
    cluster.createOrderedTable(OUT, List.of(new Column("v", "int64", false, true)), 1);
    CommitTransactionalBatch commit = new CommitTransactionalBatch(cluster.consumerOffsets());
    List<OffsetRange> ranges = List.of(new OffsetRange(new PartitionId(Q, 0), 0, 3));
    Map<QueueId, ConsumerId> consumers = Map.of(Q, CONSUMER);

    TabletTransaction first = cluster.transactions().start(Duration.ofSeconds(30));
    first.insertRows(OUT, List.of(Row.of("v", 1L)));
    assertEquals(
        CommitTransactionalBatch.Result.COMMITTED, commit.commit(0, first, ranges, consumers));

    TabletTransaction again = cluster.transactions().start(Duration.ofSeconds(30));
    again.insertRows(OUT, List.of(Row.of("v", 1L)));
    assertEquals(
        CommitTransactionalBatch.Result.ALREADY_APPLIED,
        commit.commit(0, again, ranges, consumers));
    assertEquals(1, cluster.rows(OUT, 0, 0).size(), "the second attempt wrote nothing");
    assertEquals(
        3L, cluster.consumerOffsets().read(CONSUMER, Q).getOrDefault(ranges.get(0).partition(), 0));
  }

  @Test
  void aBatchWhoseConsumerWasMovedByAnotherWriterIsFenced() {
    queue(1, 10);
    cluster.createOrderedTable(OUT, List.of(new Column("v", "int64", false, true)), 1);
    PartitionId p = new PartitionId(Q, 0);
    cluster.consumerOffsets().advance(CONSUMER, p, OptionalLong.of(0), 1);
    TabletTransaction tx = cluster.transactions().start(Duration.ofSeconds(30));
    tx.insertRows(OUT, List.of(Row.of("v", 1L)));
    BatchNotCommittedException e =
        assertThrows(
            BatchNotCommittedException.class,
            () ->
                new CommitTransactionalBatch(cluster.consumerOffsets())
                    .commit(0, tx, List.of(new OffsetRange(p, 0, 3)), Map.of(Q, CONSUMER)));
    assertEquals(CommitOutcome.FENCED, e.outcome());
    assertEquals(0, cluster.rows(OUT, 0, 0).size());
  }
}
