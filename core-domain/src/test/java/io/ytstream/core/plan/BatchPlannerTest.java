package io.ytstream.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The batch planner against an independent oracle: exhaustive over small domains (one partition;
 * several partitions of several queues), then seeded random cases with large values.
 */
class BatchPlannerTest {

  private static final QueueId Q = QueueId.of("primary", "//home/q");
  private static final QueueId R = QueueId.of("primary", "//home/r");
  private static final DataLossPolicy[] POLICIES = DataLossPolicy.values();

  /** One partition's inputs; {@code start < 0} means absent from the start offsets. */
  record Input(PartitionId partition, long trimmed, long total, long start) {}

  /** What the oracle expects for one partition. */
  record Expected(long lower, long upper, Optional<DataLoss> loss) {}

  private static Expected expect(Input in, long maxRows) {
    long lower = in.start < 0 ? in.trimmed : Math.max(in.start, in.trimmed);
    Optional<DataLoss> loss =
        in.start >= 0 && in.start < in.trimmed
            ? Optional.of(new DataLoss(in.partition, in.start, in.trimmed))
            : Optional.empty();
    // upper = min(lower + max, end), without overflow for huge limits.
    long upper = maxRows >= in.total - lower ? in.total : lower + maxRows;
    return new Expected(lower, upper, loss);
  }

  private static QueueBounds boundsOf(List<Input> inputs) {
    TreeMap<QueueId, List<PartitionBounds>> byQueue = new TreeMap<>();
    for (Input in : inputs) {
      List<PartitionBounds> list =
          byQueue.computeIfAbsent(in.partition.queue(), q -> new ArrayList<>());
      list.add(new PartitionBounds(in.partition.index(), in.trimmed, in.total));
    }
    return QueueBounds.of(byQueue);
  }

  private static StreamOffsets startOf(List<Input> inputs, Map<PartitionId, Long> extra) {
    TreeMap<PartitionId, Long> m = new TreeMap<>(extra);
    for (Input in : inputs) {
      if (in.start >= 0) {
        m.put(in.partition, in.start);
      }
    }
    return StreamOffsets.of(m);
  }

  /**
   * Plans and checks every invariant against the oracle. {@code inputs} must be in partition order.
   */
  static void check(
      List<Input> inputs, Map<PartitionId, Long> extra, PlanLimits limits, String ctx) {
    StreamOffsets start = startOf(inputs, extra);
    QueueBounds bounds = boundsOf(inputs);
    Input beyond = null;
    List<DataLoss> losses = new ArrayList<>();
    for (Input in : inputs) {
      if (beyond == null && in.start > in.total) {
        beyond = in;
      }
      expect(in, limits.maxRowsPerPartition()).loss.ifPresent(losses::add);
    }
    if (beyond != null) {
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class, () -> BatchPlanner.plan(start, bounds, limits), ctx);
      assertEquals(
          "offset "
              + beyond.start
              + " of "
              + beyond.partition
              + " is beyond the end of the partition ("
              + beyond.total
              + " rows): the checkpoint or consumer does not belong to this queue, or the queue"
              + " was re-created. Use a new checkpointLocation and consumer, or re-create the"
              + " queue with trimmed_row_counts",
          e.getMessage(),
          ctx);
      return;
    }
    if (!losses.isEmpty() && limits.dataLossPolicy() == DataLossPolicy.FAIL) {
      DataLossException e =
          assertThrows(
              DataLossException.class, () -> BatchPlanner.plan(start, bounds, limits), ctx);
      assertEquals(losses, e.losses(), ctx);
      for (DataLoss loss : losses) {
        assertTrue(e.getMessage().contains(loss.partition().toString()), ctx);
        assertTrue(e.getMessage().contains("(" + loss.lostRows() + " rows)"), ctx);
      }
      assertTrue(e.getMessage().contains("fail_on_data_loss=false"), ctx);
      return;
    }
    BatchPlan plan = BatchPlanner.plan(start, bounds, limits);
    assertEquals(plan, BatchPlanner.plan(start, bounds, limits), ctx + ": deterministic");
    TreeMap<PartitionId, Long> expectedStart = new TreeMap<>(extra);
    TreeMap<PartitionId, Long> expectedEnd = new TreeMap<>(extra);
    List<OffsetRange> expectedRanges = new ArrayList<>();
    long rows = 0;
    for (Input in : inputs) {
      Expected x = expect(in, limits.maxRowsPerPartition());
      expectedStart.put(in.partition, x.lower);
      expectedEnd.put(in.partition, x.upper);
      if (x.upper > x.lower) {
        expectedRanges.add(new OffsetRange(in.partition, x.lower, x.upper));
        rows += x.upper - x.lower;
      }
      // Never beyond the partition end, never behind the start.
      assertTrue(x.upper <= in.total && x.upper >= x.lower, ctx);
    }
    assertEquals(StreamOffsets.of(expectedStart), plan.start(), ctx + ": start");
    assertEquals(StreamOffsets.of(expectedEnd), plan.end(), ctx + ": end");
    assertEquals(expectedRanges, plan.ranges(), ctx + ": ranges");
    assertEquals(losses, plan.losses(), ctx + ": losses");
    assertEquals(rows, plan.rowCount(), ctx);
    assertEquals(rows > 0, plan.hasData(), ctx);
    assertEquals(losses.stream().mapToLong(DataLoss::lostRows).sum(), plan.lostRowCount(), ctx);
    for (OffsetRange range : plan.ranges()) {
      assertFalse(range.isEmpty(), ctx + ": empty partitions are skipped");
    }
  }

  @Test
  void onePartitionExhaustive() {
    PartitionId p = new PartitionId(Q, 0);
    int cases = 0;
    for (long trimmed = 0; trimmed <= 6; trimmed++) {
      for (long total = trimmed; total <= 6; total++) {
        for (long start = -1; start <= 7; start++) {
          for (long max = 1; max <= 7; max++) {
            for (DataLossPolicy policy : POLICIES) {
              String ctx =
                  "trimmed="
                      + trimmed
                      + " total="
                      + total
                      + " start="
                      + start
                      + " max="
                      + max
                      + " "
                      + policy;
              check(
                  List.of(new Input(p, trimmed, total, start)),
                  Map.of(),
                  PlanLimits.of(max, policy),
                  ctx);
              cases++;
            }
          }
        }
      }
    }
    assertEquals(28 * 9 * 7 * 2, cases);
  }

  @Test
  void severalPartitionsOfSeveralQueuesExhaustive() {
    long[][] shapes = {{0, 0}, {0, 1}, {0, 5}, {2, 2}, {2, 3}, {2, 5}};
    long[] starts = {-1, 0, 1, 3, 6};
    PartitionId[] ids = {new PartitionId(Q, 0), new PartitionId(Q, 1), new PartitionId(R, 0)};
    Map<PartitionId, Long> gone = Map.of(new PartitionId(QueueId.of("old", "//q"), 4), 11L);
    int n = shapes.length * starts.length;
    for (int c0 = 0; c0 < n; c0++) {
      for (int c1 = 0; c1 < n; c1++) {
        for (int c2 = 0; c2 < n; c2++) {
          int[] choice = {c0, c1, c2};
          List<Input> inputs = new ArrayList<>();
          for (int i = 0; i < 3; i++) {
            long[] shape = shapes[choice[i] / starts.length];
            inputs.add(new Input(ids[i], shape[0], shape[1], starts[choice[i] % starts.length]));
          }
          for (long max : new long[] {1, 3}) {
            for (DataLossPolicy policy : POLICIES) {
              check(
                  inputs,
                  (c0 + c1 + c2) % 2 == 0 ? gone : Map.of(),
                  PlanLimits.of(max, policy),
                  inputs + " max=" + max + " " + policy);
            }
          }
        }
      }
    }
  }

  @Test
  void randomizedWithLargeValues() {
    for (long seed = 1; seed <= 400; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      List<Input> inputs = new ArrayList<>();
      int queues = 1 + random.nextInt(4);
      boolean allowBeyond = random.nextInt(8) == 0;
      for (int q = 0; q < queues; q++) {
        QueueId queue = QueueId.of("c" + random.nextInt(2), "//q" + q);
        int partitions = random.nextInt(9);
        for (int i = 0; i < partitions; i++) {
          long scale = random.nextBoolean() ? 10 : 1L << (10 + random.nextInt(40));
          long trimmed = random.nextLong(scale);
          long total = trimmed + random.nextLong(scale);
          long start =
              switch (random.nextInt(5)) {
                case 0 -> -1;
                case 1 -> random.nextLong(trimmed + 1);
                case 2 -> allowBeyond ? total + 1 + random.nextLong(scale) : total;
                default -> trimmed + random.nextLong(total - trimmed + 1);
              };
          inputs.add(new Input(new PartitionId(queue, i), trimmed, total, start));
        }
      }
      inputs.sort((a, b) -> a.partition.compareTo(b.partition));
      // Keep each queue's partitions numbered 0..n-1 after the sort (queues may share a name).
      List<Input> renumbered = renumber(inputs);
      long max =
          switch (random.nextInt(3)) {
            case 0 -> 1 + random.nextInt(10);
            case 1 -> 1 + random.nextLong(1L << 40);
            default -> Long.MAX_VALUE;
          };
      DataLossPolicy policy = POLICIES[random.nextInt(2)];
      check(renumbered, Map.of(), PlanLimits.of(max, policy), "seed=" + seed);
    }
  }

  private static List<Input> renumber(List<Input> sorted) {
    List<Input> out = new ArrayList<>();
    QueueId current = null;
    int next = 0;
    for (Input in : sorted) {
      if (!in.partition.queue().equals(current)) {
        current = in.partition.queue();
        next = 0;
      }
      out.add(new Input(new PartitionId(current, next++), in.trimmed, in.total, in.start));
    }
    return out;
  }

  @Test
  void newPartitionsStartAtTheirFirstRow() {
    // The tablet count grew from 2 to 4; partitions 2 and 3 are not in the start offsets.
    StreamOffsets start = StreamOffsets.ofQueue(Q, Map.of(0, 5L, 1, 6L));
    QueueBounds bounds =
        QueueBounds.ofQueue(
            Q,
            List.of(
                new PartitionBounds(0, 0, 10),
                new PartitionBounds(1, 0, 6),
                new PartitionBounds(2, 3, 9),
                new PartitionBounds(3, 0, 4)));
    BatchPlan plan = BatchPlanner.plan(start, bounds, PlanLimits.of(100, DataLossPolicy.FAIL));
    assertEquals(
        List.of(
            new OffsetRange(new PartitionId(Q, 0), 5, 10),
            new OffsetRange(new PartitionId(Q, 2), 3, 9),
            new OffsetRange(new PartitionId(Q, 3), 0, 4)),
        plan.ranges());
    assertEquals(List.of(), plan.losses());
    assertEquals(StreamOffsets.ofQueue(Q, Map.of(0, 5L, 1, 6L, 2, 3L, 3, 0L)), plan.start());
    assertEquals(StreamOffsets.ofQueue(Q, Map.of(0, 10L, 1, 6L, 2, 9L, 3, 4L)), plan.end());
  }

  @Test
  void dataLossMessage() {
    StreamOffsets start = StreamOffsets.ofQueue(Q, Map.of(0, 2L, 1, 0L));
    QueueBounds bounds =
        QueueBounds.ofQueue(Q, List.of(new PartitionBounds(0, 7, 9), new PartitionBounds(1, 0, 3)));
    DataLossException e =
        assertThrows(
            DataLossException.class, () -> BatchPlanner.plan(start, bounds, PlanLimits.defaults()));
    assertEquals(
        "data loss: primary://home/q#0: rows [2, 7) were trimmed before they were read (5 rows)."
            + " The queue was trimmed past the consumer (is the consumer registered as vital?)."
            + " To skip the lost rows and go on, set the option fail_on_data_loss=false; the"
            + " skipped count is then reported in the query progress.",
        e.getMessage());
    BatchPlan skipped =
        BatchPlanner.plan(start, bounds, PlanLimits.of(100, DataLossPolicy.SKIP_AND_REPORT));
    assertEquals(5, skipped.lostRowCount());
    assertEquals(
        List.of(
            new OffsetRange(new PartitionId(Q, 0), 7, 9),
            new OffsetRange(new PartitionId(Q, 1), 0, 3)),
        skipped.ranges());
  }

  @Test
  void noPartitionsNoData() {
    BatchPlan plan =
        BatchPlanner.plan(StreamOffsets.empty(), QueueBounds.of(Map.of()), PlanLimits.defaults());
    assertFalse(plan.hasData());
    assertEquals(0, plan.rowCount());
    assertEquals(StreamOffsets.empty(), plan.end());
  }

  @Test
  void idleQueueHasNoData() {
    StreamOffsets start = StreamOffsets.ofQueue(Q, Map.of(0, 4L, 1, 2L));
    QueueBounds bounds =
        QueueBounds.ofQueue(Q, List.of(new PartitionBounds(0, 0, 4), new PartitionBounds(1, 2, 2)));
    BatchPlan plan = BatchPlanner.plan(start, bounds, PlanLimits.defaults());
    assertFalse(plan.hasData());
    assertEquals(start, plan.end());
    assertEquals(start, plan.start());
  }

  @Test
  void defaultLimitIsApplied() {
    StreamOffsets start = StreamOffsets.ofQueue(Q, Map.of(0, 0L));
    QueueBounds bounds = QueueBounds.ofQueue(Q, List.of(new PartitionBounds(0, 0, 1_000_000)));
    BatchPlan plan = BatchPlanner.plan(start, bounds, PlanLimits.defaults());
    assertEquals(
        List.of(
            new OffsetRange(new PartitionId(Q, 0), 0, PlanLimits.DEFAULT_MAX_ROWS_PER_PARTITION)),
        plan.ranges());
  }
}
