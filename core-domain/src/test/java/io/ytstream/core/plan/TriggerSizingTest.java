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
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The trigger's total cap (split by backlog) and its minimum with a delay. */
class TriggerSizingTest {

  private static final QueueId Q = QueueId.of("primary", "//home/q");

  private static long[] split(long max, long... sizes) {
    long[] lowers = new long[sizes.length];
    long[] uppers = sizes.clone();
    TriggerBudget.apply(max, lowers, uppers);
    return uppers;
  }

  @Test
  void theCapIsSplitByBacklog() {
    // 100 rows over backlogs 600, 300, 100 (1000 in all): one each, then 97 by backlog.
    long[] got = split(100, 600, 300, 100);
    assertEquals(100, got[0] + got[1] + got[2]);
    assertEquals(List.of(60L, 30L, 10L), List.of(got[0], got[1], got[2]));
  }

  @Test
  void noMoreThanAvailableAndUntouchedUnderTheCap() {
    assertEquals(List.of(5L, 0L, 7L), asList(split(100, 5, 0, 7)));
    assertEquals(List.of(5L, 0L, 7L), asList(split(12, 5, 0, 7)));
  }

  @Test
  void aSmallPartitionBesideLargeOnesIsNotStarved() {
    long[] got = split(10, 1_000_000, 1_000_000, 1);
    assertEquals(1, got[2], "the one-row partition gets its row");
    assertEquals(10, got[0] + got[1] + got[2]);
  }

  @Test
  void aCapBelowThePartitionCountGoesToTheLargestBacklogs() {
    assertEquals(List.of(0L, 1L, 1L, 0L), asList(split(2, 3, 9, 9, 0)));
  }

  /** Random cases: the total is exactly min(cap, backlog), no partition over its backlog. */
  @Test
  void exactTotalAndBoundedPerPartition() {
    SplittableRandom random = new SplittableRandom(7);
    for (int c = 0; c < 5_000; c++) {
      int n = 1 + random.nextInt(12);
      long[] sizes = new long[n];
      long total = 0;
      for (int i = 0; i < n; i++) {
        sizes[i] = random.nextInt(4) == 0 ? 0 : random.nextLong(1, 1L << random.nextInt(1, 40));
        total += sizes[i];
      }
      long max = random.nextLong(1, Math.max(2, total * 2));
      long[] got = split(max, sizes);
      long sum = 0;
      for (int i = 0; i < n; i++) {
        assertTrue(got[i] >= 0 && got[i] <= sizes[i], "case " + c + " partition " + i);
        if (max >= n && sizes[i] > 0) {
          assertTrue(got[i] >= 1, "case " + c + ": every partition with rows progresses");
        }
        sum += got[i];
      }
      assertEquals(Math.min(max, total), sum, "case " + c);
      assertArrayEquals(got, split(max, sizes), "case " + c + ": deterministic");
    }
  }

  private static void assertArrayEquals(long[] a, long[] b, String message) {
    assertEquals(asList(a), asList(b), message);
  }

  private static List<Long> asList(long[] values) {
    List<Long> out = new ArrayList<>();
    for (long v : values) {
      out.add(v);
    }
    return out;
  }

  @Test
  void thePlannerAppliesTheCapAfterThePerPartitionCap() {
    StreamOffsets start = StreamOffsets.ofQueue(Q, Map.of(0, 10L, 1, 0L));
    QueueBounds bounds =
        QueueBounds.ofQueue(
            Q, List.of(new PartitionBounds(0, 0, 1_010), new PartitionBounds(1, 0, 50)));
    // Per partition at most 100: 100 and 50 rows; the trigger's 30 split 2:1.
    BatchPlan plan =
        BatchPlanner.plan(
            start, bounds, PlanLimits.of(100, DataLossPolicy.FAIL), OptionalLong.of(30));
    assertEquals(
        List.of(
            new OffsetRange(new PartitionId(Q, 0), 10, 30),
            new OffsetRange(new PartitionId(Q, 1), 0, 10)),
        plan.ranges());
    assertEquals(
        BatchPlanner.plan(start, bounds, PlanLimits.of(100, DataLossPolicy.FAIL)),
        BatchPlanner.plan(
            start, bounds, PlanLimits.of(100, DataLossPolicy.FAIL), OptionalLong.empty()));
  }

  @Test
  void aMinimumHoldsBackUntilTheDelayPassed() {
    TriggerLimit limit = new TriggerLimit(OptionalLong.empty(), OptionalLong.of(100), 60_000);
    assertTrue(limit.holdsBack(99, 59_999));
    assertFalse(limit.holdsBack(100, 0), "enough rows");
    assertFalse(limit.holdsBack(1, 60_000), "waited long enough");
    assertFalse(limit.withoutMinimum().holdsBack(1, 0));
    assertFalse(TriggerLimit.none().holdsBack(0, 0));
  }

  @Test
  void inconsistentLimitsAreRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new TriggerLimit(OptionalLong.of(10), OptionalLong.of(11), 1));
    assertThrows(
        IllegalArgumentException.class,
        () -> new TriggerLimit(OptionalLong.of(0), OptionalLong.empty(), 1));
    assertThrows(
        IllegalArgumentException.class,
        () -> new TriggerLimit(OptionalLong.empty(), OptionalLong.empty(), -1));
  }
}
