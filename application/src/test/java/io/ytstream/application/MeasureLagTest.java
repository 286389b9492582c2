package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.QueueBounds;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Lag in rows, bytes and seconds over the in-memory cluster, with the weights and times worked out
 * from the server's rules rather than read back: a row of {@code id int64, payload string} with
 * both lag columns weighs 1 + 8 + payload bytes + 8 ({@code $timestamp}) + 8 ({@code
 * $cumulative_data_weight}); a timestamp's second is its Unix time.
 */
class MeasureLagTest {

  private static final YPath QUEUE = YPath.of("//q");
  private static final QueueId Q = QueueId.of("primary", "//q");
  private static final ConsumerId CONSUMER = ConsumerId.of("primary", "//c");
  private static final PartitionId P0 = new PartitionId(Q, 0);
  private static final PartitionId P1 = new PartitionId(Q, 1);
  private static final MeasureLag.LagColumns BOTH = new MeasureLag.LagColumns(true, true);

  /** Payload "p" + id: two bytes for ids 0..9. */
  private static final long ROW_WEIGHT = 1 + 8 + 2 + 8 + 8;

  private final ManualClock clock = new ManualClock();
  private final InMemoryCluster cluster = new InMemoryCluster("primary", clock);
  private final AtomicInteger pulls = new AtomicInteger();

  private final QueuePartitionReader countingReader =
      (consumer, partition, offset, maxRows) -> {
        pulls.incrementAndGet();
        return cluster.queueReader().pull(consumer, partition, offset, maxRows);
      };

  private void queue(boolean lagColumns) {
    List<Column> columns = new ArrayList<>();
    columns.add(new Column("id", "int64", false, false));
    columns.add(new Column("payload", "string", false, false));
    if (lagColumns) {
      columns.add(new Column("$timestamp", "uint64", false, false));
      columns.add(new Column("$cumulative_data_weight", "int64", false, false));
    }
    cluster.createOrderedTable(QUEUE, columns, 2);
    cluster.createConsumer(CONSUMER.path());
    cluster.registerConsumer(QUEUE, CONSUMER.path(), true);
  }

  private void produce(int tablet, long from, long to) {
    List<Row> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(Row.of("id", id, "payload", "p" + id));
    }
    cluster.appendToTablet(QUEUE, tablet, rows);
  }

  private QueueBounds bounds() {
    return new PlanMicroBatch(
            cluster.queueMetadata(), CONSUMER, List.of(Q), PlanLimits.of(100, DataLossPolicy.FAIL))
        .readBounds();
  }

  private MeasureLag measure(MeasureLag.LagColumns columns) {
    return new MeasureLag(countingReader, CONSUMER, Map.of(Q, columns));
  }

  @Test
  void rowsBytesAndSecondsBetweenTheConsumedOffsetAndTheNewestRow() {
    queue(true);
    produce(0, 0, 5);
    clock.advance(Duration.ofSeconds(7));
    produce(0, 5, 10);
    produce(1, 0, 4);

    MeasureLag.Lag lag = measure(BOTH).measure(bounds(), StreamOffsets.of(Map.of(P0, 3L, P1, 4L)));

    assertEquals(
        List.of(
            new MeasureLag.PartitionLag(P0, 7, OptionalLong.of(7 * ROW_WEIGHT), OptionalLong.of(7)),
            new MeasureLag.PartitionLag(P1, 0, OptionalLong.of(0), OptionalLong.of(0))),
        lag.partitions());
    assertTrue(lag.bytesKnown());
    assertTrue(lag.secondsKnown());
    assertEquals(2, pulls.get(), "two short pulls for the partition behind, none for the other");
  }

  @Test
  void nothingConsumedCountsEveryRowAndUnreadRowsOfOneSecondAreZeroSeconds() {
    queue(true);
    produce(0, 0, 6);

    MeasureLag.Lag lag = measure(BOTH).measure(bounds(), StreamOffsets.empty());

    assertEquals(
        new MeasureLag.PartitionLag(P0, 6, OptionalLong.of(6 * ROW_WEIGHT), OptionalLong.of(0)),
        lag.partitions().get(0));
  }

  @Test
  void aTrimmedLastConsumedRowLeavesBytesUnknownButNotSeconds() {
    queue(true);
    produce(0, 0, 5);
    clock.advance(Duration.ofSeconds(3));
    produce(0, 5, 8);
    cluster.trimRows(QUEUE, 0, 4);

    MeasureLag.Lag lag = measure(BOTH).measure(bounds(), StreamOffsets.of(Map.of(P0, 4L, P1, 0L)));

    assertEquals(
        new MeasureLag.PartitionLag(P0, 4, OptionalLong.empty(), OptionalLong.of(3)),
        lag.partitions().get(0));
    assertFalse(lag.bytesKnown());
    assertTrue(lag.secondsKnown());
  }

  @Test
  void aQueueWithoutTheColumnsHasRowsOnlyAndIsNotRead() {
    queue(false);
    produce(0, 0, 5);

    MeasureLag.Lag lag =
        measure(MeasureLag.LagColumns.NONE)
            .measure(bounds(), StreamOffsets.of(Map.of(P0, 1L, P1, 0L)));

    assertEquals(
        new MeasureLag.PartitionLag(P0, 4, OptionalLong.empty(), OptionalLong.empty()),
        lag.partitions().get(0));
    assertFalse(lag.bytesKnown());
    assertFalse(lag.secondsKnown());
    assertEquals(0, pulls.get());
  }

  @Test
  void anUnchangedPartitionIsNotReadAgain() {
    queue(true);
    produce(0, 0, 5);
    MeasureLag m = measure(BOTH);
    StreamOffsets consumed = StreamOffsets.of(Map.of(P0, 2L, P1, 0L));
    MeasureLag.Lag first = m.measure(bounds(), consumed);
    int afterFirst = pulls.get();

    assertEquals(first, m.measure(bounds(), consumed));
    assertEquals(afterFirst, pulls.get());

    produce(0, 5, 6);
    MeasureLag.Lag grown = m.measure(bounds(), consumed);
    assertEquals(OptionalLong.of(4 * ROW_WEIGHT), grown.partitions().get(0).bytes());
  }

  @Test
  void aTrimOfUnreadRowsIsMeasuredAgain() {
    queue(true);
    produce(0, 0, 2);
    clock.advance(Duration.ofSeconds(5));
    produce(0, 2, 4);
    MeasureLag m = measure(BOTH);
    StreamOffsets consumed = StreamOffsets.of(Map.of(P0, 0L, P1, 0L));
    assertEquals(OptionalLong.of(5), m.measure(bounds(), consumed).partitions().get(0).seconds());

    // The two older unread rows are trimmed: the oldest unread row is now one of the newer ones.
    cluster.trimRows(QUEUE, 0, 2);

    MeasureLag.PartitionLag after = m.measure(bounds(), consumed).partitions().get(0);
    assertEquals(4, after.rows());
    assertEquals(OptionalLong.of(0), after.seconds());
  }
}
