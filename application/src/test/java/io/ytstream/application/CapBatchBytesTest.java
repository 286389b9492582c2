package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.QueueBounds;
import io.ytstream.core.plan.TriggerLimit;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Batches capped by data weight over the in-memory cluster, whose {@code $cumulative_data_weight}
 * follows the server's rule: a row of {@code id int64, payload string} weighs 1 + 8 + the payload's
 * bytes + 8 for the column itself.
 */
class CapBatchBytesTest {

  private static final YPath QUEUE = YPath.of("//q");
  private static final QueueId Q = QueueId.of("primary", "//q");
  private static final ConsumerId CONSUMER = ConsumerId.of("primary", "//c");
  private static final PartitionId P0 = new PartitionId(Q, 0);
  private static final PartitionId P1 = new PartitionId(Q, 1);

  private final InMemoryCluster cluster = new InMemoryCluster("primary", new ManualClock());
  private final AtomicInteger pulls = new AtomicInteger();
  private final QueuePartitionReader countingReader =
      (consumer, partition, offset, maxRows) -> {
        pulls.incrementAndGet();
        return cluster.queueReader().pull(consumer, partition, offset, maxRows);
      };

  /** Each partition's row weights, in row order, as produced. */
  private final Map<Integer, List<Long>> weights =
      Map.of(0, new ArrayList<>(), 1, new ArrayList<>());

  private void queue(boolean weightColumn, int tablets) {
    List<Column> columns = new ArrayList<>();
    columns.add(new Column("id", "int64", false, false));
    columns.add(new Column("payload", "string", false, false));
    if (weightColumn) {
      columns.add(new Column("$cumulative_data_weight", "int64", false, false));
    }
    cluster.createOrderedTable(QUEUE, columns, tablets);
    cluster.createConsumer(CONSUMER.path());
    cluster.registerConsumer(QUEUE, CONSUMER.path(), true);
  }

  private void produce(int tablet, int... payloadSizes) {
    List<Row> rows = new ArrayList<>();
    for (int size : payloadSizes) {
      rows.add(Row.of("id", (long) weights.get(tablet).size(), "payload", "x".repeat(size)));
      weights.get(tablet).add(1L + 8 + size + 8);
    }
    cluster.appendToTablet(QUEUE, tablet, rows);
  }

  private long bytes(int tablet, long from, long to) {
    long sum = 0;
    for (long r = from; r < to; r++) {
      sum += weights.get(tablet).get((int) r);
    }
    return sum;
  }

  /** The consumer's offsets now (a missing row is offset 0). */
  private StreamOffsets consumerNow() {
    return cluster.consumerOffsets().read(CONSUMER, Q);
  }

  private PlanMicroBatch planner(PlanLimits limits) {
    return new PlanMicroBatch(
        cluster.queueMetadata(),
        CONSUMER,
        List.of(Q),
        limits,
        new CapBatchBytes(countingReader, CONSUMER));
  }

  private static TriggerLimit maxBytes(long bytes) {
    return new TriggerLimit(
        OptionalLong.empty(),
        OptionalLong.empty(),
        TriggerLimit.DEFAULT_MAX_DELAY_MS,
        OptionalLong.of(bytes));
  }

  private static PlanLimits perPartition(long bytes) {
    return PlanLimits.of(1_000, DataLossPolicy.FAIL)
        .withMaxBytesPerPartition(OptionalLong.of(bytes));
  }

  private static StreamOffsets at(long p0, long p1) {
    return StreamOffsets.of(Map.of(P0, p0, P1, p1));
  }

  private StreamOffsets plan(PlanMicroBatch planner, StreamOffsets start, TriggerLimit limit) {
    QueueBounds bounds = planner.readBounds();
    return planner.plan(start, bounds, consumerNow(), limit, 0, true).end();
  }

  @Test
  void mixedSizesArriveOnceInBatchesWithinTheTriggerCapOrOfOneOversizedRow() {
    queue(true, 2);
    SplittableRandom random = new SplittableRandom(7);
    for (int tablet = 0; tablet < 2; tablet++) {
      int[] sizes = new int[80];
      for (int i = 0; i < sizes.length; i++) {
        sizes[i] = random.nextInt(8) == 0 ? 400 + random.nextInt(400) : random.nextInt(60);
      }
      produce(tablet, sizes);
    }
    long cap = 300;
    PlanMicroBatch planner = planner(PlanLimits.of(1_000, DataLossPolicy.FAIL));
    StreamOffsets start = at(0, 0);
    int batches = 0;
    int oversized = 0;
    while (!start.equals(at(80, 80))) {
      pulls.set(0);
      StreamOffsets end = plan(planner, start, maxBytes(cap));
      int bound = 0;
      for (PartitionId p : List.of(P0, P1)) {
        long rows = 80 - start.getOrDefault(p, 0);
        if (rows > 0) {
          bound += 3 * (64 - Long.numberOfLeadingZeros(rows - 1)) + 3;
        }
      }
      assertTrue(pulls.get() <= bound, "pulls " + pulls.get() + " within " + bound);
      long rows = 0;
      long total = 0;
      for (int tablet = 0; tablet < 2; tablet++) {
        PartitionId p = tablet == 0 ? P0 : P1;
        long from = start.getOrDefault(p, 0);
        long to = end.getOrDefault(p, 0);
        assertTrue(to >= from, "ends never move back");
        rows += to - from;
        total += bytes(tablet, from, to);
      }
      assertTrue(rows > 0, "every batch moves: " + start + " -> " + end);
      if (total > cap) {
        assertEquals(1, rows, "a batch over the cap is one row larger than the cap");
        oversized++;
      }
      start = end;
      batches++;
      assertTrue(batches < 500, "the stream ends");
    }
    assertTrue(oversized > 0, "the data has rows over the cap, so some batch was one of them");
    assertTrue(batches > 10, "the cap cut the queue into many batches: " + batches);
  }

  @Test
  void aPartitionCapCutsEachPartitionOnItsOwn() {
    queue(true, 2);
    produce(0, 10, 10, 10, 10); // 27 bytes each
    produce(1, 100, 1, 1); // 117, then 18 each
    PlanMicroBatch planner = planner(perPartition(60));
    StreamOffsets end = plan(planner, at(0, 0), TriggerLimit.none());
    assertEquals(at(2, 1), end, "two rows of 27 fit 60; the 117-byte row goes alone");
    assertEquals(at(4, 3), plan(planner, end, TriggerLimit.none()));
  }

  @Test
  void theBaseOfTheNextBatchIsRememberedNotReadAgain() {
    queue(true, 1);
    produce(0, 10, 10, 10, 10, 10, 10, 10, 10);
    PlanMicroBatch planner = planner(perPartition(60));
    StreamOffsets first = plan(planner, StreamOffsets.of(Map.of(P0, 0L)), TriggerLimit.none());
    assertEquals(StreamOffsets.of(Map.of(P0, 2L)), first);
    pulls.set(0);
    StreamOffsets second = plan(planner, first, TriggerLimit.none());
    assertEquals(StreamOffsets.of(Map.of(P0, 4L)), second);
    // Row 1's value is remembered from the first batch: the reads are the range's last row and
    // the bisection, never row 1.
    assertTrue(pulls.get() <= 1 + 3, "pulls: " + pulls.get());
  }

  @Test
  void aStartWhoseRowBeforeIsTrimmedGetsOneRowThenBatchesAsUsual() {
    queue(true, 1);
    produce(0, 10, 10, 10, 10, 10, 10, 10, 10);
    cluster.trimRows(QUEUE, 0, 3);
    PlanMicroBatch planner = planner(perPartition(60));
    StreamOffsets first = plan(planner, StreamOffsets.of(Map.of(P0, 3L)), TriggerLimit.none());
    assertEquals(StreamOffsets.of(Map.of(P0, 4L)), first, "row 2's value is gone: one row");
    cluster.trimRows(QUEUE, 0, 4);
    StreamOffsets second = plan(planner, first, TriggerLimit.none());
    assertEquals(
        StreamOffsets.of(Map.of(P0, 6L)), second, "row 3's value was read with the first batch");
  }

  @Test
  void aValueReadForARowTrimmedUnderTheSearchIsNotRememberedAsItsOwn() {
    queue(true, 1);
    produce(0, 10, 10, 10, 10, 10, 10, 10, 10); // 27 bytes each: row r's value is 27 * (r + 1)
    PlanMicroBatch planner =
        planner(
            PlanLimits.of(5, DataLossPolicy.FAIL).withMaxBytesPerPartition(OptionalLong.of(170)));
    QueueBounds before = planner.readBounds();
    cluster.trimRows(QUEUE, 0, 5);
    // Planned with the bounds read before the trim: row 4 answers with row 5's value (162), which
    // fits 170, so the batch is [0, 5).
    StreamOffsets first =
        planner
            .plan(
                StreamOffsets.of(Map.of(P0, 0L)),
                before,
                consumerNow(),
                TriggerLimit.none(),
                0,
                true)
            .end();
    assertEquals(StreamOffsets.of(Map.of(P0, 5L)), first);
    // Had 162 been kept as row 4's value, [5, 8) would measure 54 and pass a cap of 60 with its
    // 81 bytes. Row 4 is gone, so the base is unknown: one row, whose value is then known.
    StreamOffsets second = plan(planner, first, maxBytes(60));
    assertEquals(StreamOffsets.of(Map.of(P0, 6L)), second);
    assertEquals(StreamOffsets.of(Map.of(P0, 8L)), plan(planner, second, maxBytes(60)));
  }

  @Test
  void theRowCapsComeFirstAndTheBytesCutWhatIsLeft() {
    queue(true, 1);
    produce(0, 10, 10, 10, 10, 10, 10, 10, 10);
    PlanMicroBatch planner = planner(PlanLimits.of(3, DataLossPolicy.FAIL));
    TriggerLimit both =
        new TriggerLimit(
            OptionalLong.of(2),
            OptionalLong.empty(),
            TriggerLimit.DEFAULT_MAX_DELAY_MS,
            OptionalLong.of(1_000));
    assertEquals(
        StreamOffsets.of(Map.of(P0, 2L)), plan(planner, StreamOffsets.of(Map.of(P0, 0L)), both));
    assertEquals(
        StreamOffsets.of(Map.of(P0, 1L)),
        plan(planner, StreamOffsets.of(Map.of(P0, 0L)), maxBytes(40)),
        "27 fits 40, 54 does not");
  }

  @Test
  void theMinimumStillHoldsBackByRowsAndAvailableNowDropsIt() {
    queue(true, 1);
    produce(0, 10, 10, 10);
    PlanMicroBatch planner = planner(PlanLimits.of(1_000, DataLossPolicy.FAIL));
    TriggerPacing pacing = new TriggerPacing(planner);
    TriggerLimit limit =
        new TriggerLimit(OptionalLong.empty(), OptionalLong.of(5), 60_000, OptionalLong.of(60));
    StreamOffsets start = StreamOffsets.of(Map.of(P0, 0L));
    PlanMicroBatch.PlannedEnd first =
        pacing.plan(start, planner.readBounds(), consumerNow(), limit, false, 0, true);
    assertEquals(StreamOffsets.of(Map.of(P0, 2L)), first.end(), "the first never waits; 60 bytes");
    PlanMicroBatch.PlannedEnd held =
        pacing.plan(first.end(), planner.readBounds(), consumerNow(), limit, false, 1_000, true);
    assertTrue(held.heldBack(), "1 row < 5 within the delay");
    PlanMicroBatch.PlannedEnd now =
        pacing.plan(first.end(), planner.readBounds(), consumerNow(), limit, true, 1_000, true);
    assertFalse(now.heldBack());
    assertEquals(StreamOffsets.of(Map.of(P0, 3L)), now.end());
  }

  @Test
  void realTimePlanningReadsNoWeights() {
    queue(true, 1);
    produce(0, 10, 10, 10);
    PlanMicroBatch planner = planner(perPartition(1));
    pulls.set(0);
    PlanMicroBatch.PlannedEnd planned =
        planner.plan(
            StreamOffsets.of(Map.of(P0, 0L)),
            planner.readBounds(),
            consumerNow(),
            TriggerLimit.none(),
            0,
            false);
    assertEquals(StreamOffsets.of(Map.of(P0, 3L)), planned.end());
    assertEquals(0, pulls.get());
  }

  @Test
  void aQueueWithoutTheColumnIsAnErrorNamingTheOptionAndTheQueue() {
    queue(false, 1);
    produce(0, 10, 10);
    PlanMicroBatch planner = planner(PlanLimits.of(1_000, DataLossPolicy.FAIL));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> plan(planner, StreamOffsets.of(Map.of(P0, 0L)), maxBytes(100)));
    assertTrue(e.getMessage().contains("max_bytes_per_trigger = 100"), e.getMessage());
    assertTrue(e.getMessage().contains("queue //q does not declare $cumulative_data_weight"));
    assertTrue(e.getMessage().contains("{name=\"$cumulative_data_weight\"; type=int64}"));
  }
}
