package io.ytstream.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The planner's output-tablet cap, checked against a brute-force oracle: for each output tablet,
 * every allocation {@code 0 <= a_i <= want_i} is enumerated to find the most rows that fit under
 * the cap; the planner must respect the cap, make progress whenever data exists, and use all the
 * room there is (shared by water-filling in partition order).
 */
class OutputTabletCapTest {

  private static final QueueId Q = QueueId.of("c", "//q");
  private static final QueueId R = QueueId.of("c", "//r");

  @Test
  void validation() {
    assertEquals(
        "maxRowsPerTablet must be >= 1, got 0",
        assertThrows(IllegalArgumentException.class, () -> new OutputTabletCap(0, 1, 1))
            .getMessage());
    assertEquals(
        "outputTabletCount must be >= 1, got 0",
        assertThrows(IllegalArgumentException.class, () -> new OutputTabletCap(1, 0, 1))
            .getMessage());
    assertEquals(
        "rowsPerInputRow must be >= 1, got 0",
        assertThrows(IllegalArgumentException.class, () -> new OutputTabletCap(1, 1, 0))
            .getMessage());
    new OutputTabletCap(1, 1, 1);
    OutputTabletCap d = OutputTabletCap.defaultFor(3);
    assertEquals(new OutputTabletCap(100_000, 3, 1), d);
    assertEquals(100_000, OutputTabletCap.DEFAULT_MAX_ROWS_PER_TABLET);
  }

  @Test
  void inputRowsPerTabletAndRouting() {
    for (long max = 1; max <= 12; max++) {
      for (int per = 1; per <= 5; per++) {
        assertEquals(
            Math.max(1, max / per), new OutputTabletCap(max, 1, per).maxInputRowsPerTablet());
      }
    }
    OutputTabletCap cap = new OutputTabletCap(10, 3, 1);
    for (int i = 0; i < 10; i++) {
      assertEquals(i % 3, cap.outputTabletOf(i));
    }
  }

  private final Map<String, Long> bestCache = new HashMap<>();

  /** Most input rows that fit one output tablet, by enumerating every allocation. */
  private long bruteForceBest(long[] wants, long maxRowsPerTablet, int rowsPerInputRow) {
    String key = java.util.Arrays.toString(wants) + "/" + maxRowsPerTablet + "/" + rowsPerInputRow;
    Long cached = bestCache.get(key);
    if (cached != null) {
      return cached;
    }
    long best = enumerate(wants, 0, 0, maxRowsPerTablet, rowsPerInputRow);
    bestCache.put(key, best);
    return best;
  }

  private static long enumerate(long[] wants, int i, long sum, long maxRows, int per) {
    if (i == wants.length) {
      return sum * per <= maxRows ? sum : -1;
    }
    long best = -1;
    for (long a = 0; a <= wants[i]; a++) {
      best = Math.max(best, enumerate(wants, i + 1, sum + a, maxRows, per));
    }
    return best;
  }

  /**
   * Checks a capped plan against the uncapped one. {@code partitions} lists every planned partition
   * in partition order (this is the routing order).
   */
  private void checkCap(
      List<PartitionId> partitions,
      BatchPlan uncapped,
      BatchPlan capped,
      OutputTabletCap cap,
      String ctx) {
    assertEquals(uncapped.start(), capped.start(), ctx + ": lowers never move");
    Map<PartitionId, OffsetRange> before = new HashMap<>();
    uncapped.ranges().forEach(r -> before.put(r.partition(), r));
    Map<PartitionId, OffsetRange> after = new HashMap<>();
    capped.ranges().forEach(r -> after.put(r.partition(), r));
    for (int t = 0; t < cap.outputTabletCount(); t++) {
      List<Long> wants = new ArrayList<>();
      List<Long> got = new ArrayList<>();
      for (int i = t; i < partitions.size(); i += cap.outputTabletCount()) {
        PartitionId p = partitions.get(i);
        OffsetRange u = before.get(p);
        OffsetRange c = after.get(p);
        long want = u == null ? 0 : u.rowCount();
        long g = c == null ? 0 : c.rowCount();
        if (c != null) {
          assertEquals(u.lower(), c.lower(), ctx);
          assertTrue(g > 0 && g <= want, ctx + ": within the uncapped range");
        }
        assertEquals(capped.start().getOrDefault(p, -1) + g, capped.end().getOrDefault(p, -1), ctx);
        wants.add(want);
        got.add(g);
      }
      long demand = wants.stream().mapToLong(Long::longValue).sum();
      long total = got.stream().mapToLong(Long::longValue).sum();
      long best =
          bruteForceBest(
              wants.stream().mapToLong(Long::longValue).toArray(),
              cap.maxRowsPerTablet(),
              cap.rowsPerInputRow());
      String tctx = ctx + " tablet " + t + " wants=" + wants + " got=" + got;
      if (best > 0 || demand == 0) {
        assertTrue(
            total * cap.rowsPerInputRow() <= cap.maxRowsPerTablet(), tctx + ": cap exceeded");
        assertEquals(best, total, tctx + ": room left unused");
      } else {
        // Not even one input row fits (rowsPerInputRow > maxRowsPerTablet): the planner still
        // moves one row at a time rather than stall the query.
        assertEquals(1, total, tctx + ": progress");
      }
      if (demand > 0) {
        assertTrue(total >= 1, tctx + ": no progress");
      }
      // Water-filling: a range that did not get all it wanted has at least as much as any other
      // range of the tablet, less one row for ranges earlier in partition order.
      for (int i = 0; i < got.size(); i++) {
        if (got.get(i) < wants.get(i)) {
          for (int j = 0; j < got.size(); j++) {
            assertTrue(got.get(j) <= got.get(i) + (j < i ? 1 : 0), tctx + ": unfair share");
          }
        }
      }
    }
  }

  @Test
  void exhaustiveAgainstBruteForce() {
    int plans = 0;
    for (int n = 1; n <= 4; n++) {
      int combos = (int) Math.pow(4, n);
      for (int code = 0; code < combos; code++) {
        List<PartitionBounds> partitions = new ArrayList<>();
        TreeMap<Integer, Long> start = new TreeMap<>();
        List<PartitionId> ids = new ArrayList<>();
        int c = code;
        for (int i = 0; i < n; i++) {
          long want = c % 4;
          c /= 4;
          long lower = i; // a different start per partition
          partitions.add(new PartitionBounds(i, 0, lower + want));
          start.put(i, lower);
          ids.add(new PartitionId(Q, i));
        }
        StreamOffsets s = StreamOffsets.ofQueue(Q, start);
        QueueBounds bounds = QueueBounds.ofQueue(Q, partitions);
        for (long maxRows : new long[] {2, 100}) {
          PlanLimits limits = PlanLimits.of(maxRows, DataLossPolicy.FAIL);
          BatchPlan uncapped = BatchPlanner.plan(s, bounds, limits);
          for (int tablets = 1; tablets <= 3; tablets++) {
            for (long capRows = 1; capRows <= 6; capRows++) {
              for (int per = 1; per <= 3; per++) {
                OutputTabletCap cap = new OutputTabletCap(capRows, tablets, per);
                BatchPlan capped = BatchPlanner.plan(s, bounds, limits.withOutputTabletCap(cap));
                checkCap(
                    ids,
                    uncapped,
                    capped,
                    cap,
                    "start=" + start + " bounds=" + partitions + " maxRows=" + maxRows + " " + cap);
                plans++;
              }
            }
          }
        }
      }
    }
    assertEquals(340 * 2 * 3 * 6 * 3, plans);
  }

  @Test
  void routingCountsEveryPartitionOfEveryQueue() {
    // Partitions in order: q#0 (empty), q#1, r#0, r#1; two output tablets: {q#0, r#0}, {q#1, r#1}.
    StreamOffsets start = StreamOffsets.of(Map.of());
    QueueBounds bounds =
        QueueBounds.of(
            Map.of(
                Q, List.of(new PartitionBounds(0, 0, 0), new PartitionBounds(1, 0, 10)),
                R, List.of(new PartitionBounds(0, 0, 10), new PartitionBounds(1, 0, 10))));
    BatchPlan plan =
        BatchPlanner.plan(
            start,
            bounds,
            PlanLimits.of(100, DataLossPolicy.FAIL)
                .withOutputTabletCap(new OutputTabletCap(8, 2, 1)));
    assertEquals(
        List.of(
            new OffsetRange(new PartitionId(Q, 1), 0, 4),
            new OffsetRange(new PartitionId(R, 0), 0, 8),
            new OffsetRange(new PartitionId(R, 1), 0, 4)),
        plan.ranges());
  }

  @Test
  void waterFillingExamples() {
    // One output tablet, budget 10: wants 1, 10, 10 -> 1, 5, 4.
    assertEquals(List.of(1L, 5L, 4L), capped(List.of(1L, 10L, 10L), new OutputTabletCap(10, 1, 1)));
    // Budget 5 over 3 x 10: shares of 1 go to earlier partitions first.
    assertEquals(List.of(2L, 2L, 1L), capped(List.of(10L, 10L, 10L), new OutputTabletCap(5, 1, 1)));
    // Two output rows per input row: budget 7 output rows = 3 input rows.
    assertEquals(List.of(2L, 1L), capped(List.of(10L, 10L), new OutputTabletCap(7, 1, 2)));
    // Enough room: nothing shrinks.
    assertEquals(List.of(3L, 0L, 4L), capped(List.of(3L, 0L, 4L), new OutputTabletCap(7, 1, 1)));
  }

  private static List<Long> capped(List<Long> wants, OutputTabletCap cap) {
    List<PartitionBounds> partitions = new ArrayList<>();
    for (int i = 0; i < wants.size(); i++) {
      partitions.add(new PartitionBounds(i, 0, wants.get(i)));
    }
    BatchPlan plan =
        BatchPlanner.plan(
            StreamOffsets.empty(),
            QueueBounds.ofQueue(Q, partitions),
            PlanLimits.of(1000, DataLossPolicy.FAIL).withOutputTabletCap(cap));
    List<Long> got = new ArrayList<>();
    for (int i = 0; i < wants.size(); i++) {
      got.add(plan.end().getOrDefault(new PartitionId(Q, i), -1));
    }
    return got;
  }

  @Test
  void randomizedLargeValues() {
    for (long seed = 1; seed <= 200; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      int n = 1 + random.nextInt(12);
      List<PartitionBounds> partitions = new ArrayList<>();
      TreeMap<Integer, Long> start = new TreeMap<>();
      List<PartitionId> ids = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        long lower = random.nextLong(1L << 40);
        long want = random.nextInt(3) == 0 ? 0 : random.nextLong(1L << 20);
        partitions.add(new PartitionBounds(i, 0, lower + want));
        start.put(i, lower);
        ids.add(new PartitionId(Q, i));
      }
      StreamOffsets s = StreamOffsets.ofQueue(Q, start);
      QueueBounds bounds = QueueBounds.ofQueue(Q, partitions);
      PlanLimits limits = PlanLimits.of(1 + random.nextLong(1L << 19), DataLossPolicy.FAIL);
      OutputTabletCap cap =
          new OutputTabletCap(
              1 + random.nextLong(1L << 20), 1 + random.nextInt(5), 1 + random.nextInt(4));
      BatchPlan uncapped = BatchPlanner.plan(s, bounds, limits);
      BatchPlan capped = BatchPlanner.plan(s, bounds, limits.withOutputTabletCap(cap));
      Map<PartitionId, OffsetRange> before = new HashMap<>();
      uncapped.ranges().forEach(r -> before.put(r.partition(), r));
      long[] load = new long[cap.outputTabletCount()];
      long[] demand = new long[cap.outputTabletCount()];
      for (int i = 0; i < n; i++) {
        OffsetRange u = before.get(ids.get(i));
        demand[i % load.length] += u == null ? 0 : u.rowCount();
      }
      for (OffsetRange r : capped.ranges()) {
        load[r.partition().index() % load.length] += r.rowCount();
        assertTrue(r.upper() <= before.get(r.partition()).upper(), "seed=" + seed);
      }
      long room = Math.max(1, cap.maxRowsPerTablet() / cap.rowsPerInputRow());
      for (int t = 0; t < load.length; t++) {
        assertEquals(Math.min(room, demand[t]), load[t], "seed=" + seed + " tablet " + t);
      }
    }
  }
}
