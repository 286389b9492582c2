package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.CapBatchBytes;
import io.ytstream.application.PlanMicroBatch;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.TriggerLimit;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * What {@link CapBatchBytes} promises about its one-row pulls of {@code $cumulative_data_weight}:
 * at most {@code 3 * ceil(log2(rows)) + 3} per range, no value read twice in one trigger, and the
 * next batch, which starts at the planned end, does not read its base again. The seeded runs judge
 * the ends only; a pull too many costs a round trip to the proxy per partition and trigger.
 */
class ByteCapPullsTest {

  private static final QueueId QUEUE = QueueId.of("primary", "//sim/weighted");
  private static final PartitionId P = new PartitionId(QUEUE, 0);
  private static final ConsumerId CONSUMER = ConsumerId.of("primary", "//sim/weighted-consumer");
  private static final int ROWS = 64;

  private final InMemoryCluster cluster = new InMemoryCluster("primary", new ManualClock());
  private final List<Long> pulled = new ArrayList<>();
  private final PlanMicroBatch planner;

  ByteCapPullsTest() {
    cluster.createOrderedTable(
        QUEUE.path(),
        List.of(
            new Column("v", "int64", false, true),
            new Column("$cumulative_data_weight", "int64", false, false)),
        1);
    cluster.createConsumer(CONSUMER.path());
    cluster.registerConsumer(QUEUE.path(), CONSUMER.path(), true);
    List<Row> rows = new ArrayList<>();
    for (long r = 0; r < ROWS; r++) {
      rows.add(Row.of("v", r));
    }
    cluster.appendToTablet(QUEUE.path(), 0, rows);
    QueuePartitionReader counting =
        (consumer, partition, offset, maxRows) -> {
          pulled.add(offset);
          List<QueueRow> got = cluster.queueReader().pull(consumer, partition, offset, maxRows);
          return got;
        };
    planner =
        new PlanMicroBatch(
            cluster.queueMetadata(),
            CONSUMER,
            List.of(QUEUE),
            new PlanLimits(ROWS, DataLossPolicy.FAIL, OptionalLong.empty()),
            new CapBatchBytes(counting, CONSUMER));
  }

  /** Plans from {@code from} under a trigger cap of {@code rows} rows' bytes; the end. */
  private long plan(long from, long rowWeight, long rows) {
    TriggerLimit trigger =
        new TriggerLimit(
            OptionalLong.empty(),
            OptionalLong.empty(),
            TriggerLimit.DEFAULT_MAX_DELAY_MS,
            OptionalLong.of(rowWeight * rows));
    StreamOffsets start = StreamOffsets.of(Map.of(P, from));
    return planner
        .plan(start, planner.readBounds(), start, trigger, Long.MAX_VALUE, true)
        .end()
        .getOrDefault(P, -1);
  }

  @Test
  void aBatchReadsEachValueOnceAndTheNextOneDoesNotReadItsBaseAgain() {
    // Every row weighs the same: row 0's value is one row's weight.
    long weight =
        cluster.queueReader().pull(CONSUMER, P, 0, 1).get(0).cumulativeDataWeight().getAsLong();

    long end = plan(10, weight, 5);
    assertEquals(15, end);
    assertEquals(
        pulled.size(), pulled.stream().distinct().count(), "a value read twice: " + pulled);
    assertTrue(pulled.size() <= 3 * 6 + 3, "pulls " + pulled);
    assertTrue(pulled.contains(9L), "the base before the range is read: " + pulled);

    // The same trigger planned again (Spark asks again after a restart): the base is remembered.
    pulled.clear();
    assertEquals(15, plan(10, weight, 5));
    assertFalse(pulled.contains(9L), "the base was read again: " + pulled);

    pulled.clear();
    assertEquals(20, plan(end, weight, 5));
    assertFalse(pulled.contains(end - 1), "the next batch read its base again: " + pulled);
    assertEquals(
        pulled.size(), pulled.stream().distinct().count(), "a value read twice: " + pulled);
  }

  @Test
  void aBatchFromTheFirstRowNeedsNoBase() {
    long weight =
        cluster.queueReader().pull(CONSUMER, P, 0, 1).get(0).cumulativeDataWeight().getAsLong();
    pulled.clear();
    assertEquals(3, plan(0, weight, 3));
    assertTrue(pulled.stream().allMatch(r -> r >= 0), "pulls " + pulled);
    assertEquals(
        pulled.size(), pulled.stream().distinct().count(), "a value read twice: " + pulled);
  }
}
