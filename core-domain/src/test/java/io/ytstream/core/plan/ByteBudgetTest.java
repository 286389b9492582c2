package io.ytstream.core.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Batches capped by data weight: {@code max_bytes_per_partition} and {@code _per_trigger}. */
class ByteBudgetTest {

  /** Partitions whose rows weigh {@code rows[p][r]}; the cumulative values, and calls counted. */
  private static final class Weights implements CumulativeWeights {
    final long[][] cumulative;
    int calls;
    final java.util.Set<java.util.List<Long>> distinct = new java.util.HashSet<>();

    Weights(long[]... rows) {
      cumulative = new long[rows.length][];
      for (int p = 0; p < rows.length; p++) {
        cumulative[p] = new long[rows[p].length];
        long sum = 0;
        for (int r = 0; r < rows[p].length; r++) {
          sum += rows[p][r];
          cumulative[p][r] = sum;
        }
      }
    }

    @Override
    public long at(int range, long rowIndex) {
      calls++;
      distinct.add(java.util.List.of((long) range, rowIndex));
      return cumulative[range][(int) rowIndex];
    }

    long base(int p, long lower) {
      return lower == 0 ? 0 : cumulative[p][(int) lower - 1];
    }

    long bytes(int p, long lower, long end) {
      return end <= lower ? 0 : cumulative[p][(int) end - 1] - base(p, lower);
    }
  }

  private static long[] cap(
      Weights w, long[] lowers, long[] uppers, OptionalLong perPartition, OptionalLong perTrigger) {
    long[] bases = new long[lowers.length];
    for (int p = 0; p < lowers.length; p++) {
      bases[p] = w.base(p, lowers[p]);
    }
    return ByteBudget.cap(lowers, uppers, bases, w, perPartition, perTrigger);
  }

  private static long[] rowsOf(int count, long weight) {
    long[] rows = new long[count];
    java.util.Arrays.fill(rows, weight);
    return rows;
  }

  @Test
  void withoutCapsTheRangesStayAndNothingIsRead() {
    Weights w = new Weights(rowsOf(4, 10));
    long[] ends =
        cap(w, new long[] {0}, new long[] {4}, OptionalLong.empty(), OptionalLong.empty());
    assertArrayEquals(new long[] {4}, ends);
    assertEquals(0, w.calls);
  }

  @Test
  void aPartitionEndsAtItsLastRowWithinTheCap() {
    Weights w = new Weights(rowsOf(4, 10));
    assertArrayEquals(
        new long[] {2},
        cap(w, new long[] {0}, new long[] {4}, OptionalLong.of(25), OptionalLong.empty()));
    // From row 1 on the base is row 0's value: rows 1..2 weigh 20.
    assertArrayEquals(
        new long[] {3},
        cap(w, new long[] {1}, new long[] {4}, OptionalLong.of(29), OptionalLong.empty()));
    // A cap the whole range fits leaves it whole.
    assertArrayEquals(
        new long[] {4},
        cap(w, new long[] {0}, new long[] {4}, OptionalLong.of(40), OptionalLong.empty()));
  }

  @Test
  void aFirstRowLargerThanThePartitionCapIsTakenAlone() {
    Weights w = new Weights(new long[] {100, 1, 1});
    assertArrayEquals(
        new long[] {1},
        cap(w, new long[] {0}, new long[] {3}, OptionalLong.of(50), OptionalLong.empty()));
  }

  @Test
  void theTriggerCapIsSplitByBytes() {
    Weights w = new Weights(rowsOf(10, 10), rowsOf(10, 10));
    assertArrayEquals(
        new long[] {5, 5},
        cap(w, new long[] {0, 0}, new long[] {10, 10}, OptionalLong.empty(), OptionalLong.of(100)));
  }

  @Test
  void whatRowBoundariesLeaveGoesToTheRangesWithTheMostBytesLeft() {
    // Shares 75 and 25: A takes 2 rows (60), B 25; 15 left: A's next row (30) does not fit,
    // B takes 15 more.
    Weights w = new Weights(rowsOf(10, 30), rowsOf(100, 1));
    long[] ends =
        cap(w, new long[] {0, 0}, new long[] {10, 100}, OptionalLong.empty(), OptionalLong.of(100));
    assertArrayEquals(new long[] {2, 40}, ends);
    assertEquals(100, w.bytes(0, 0, ends[0]) + w.bytes(1, 0, ends[1]));
  }

  @Test
  void whenNoRowFitsTheBatchIsOneRowOfTheRangeWithTheMostBytes() {
    Weights w = new Weights(new long[] {200, 5}, new long[] {150, 300, 5});
    assertArrayEquals(
        new long[] {0, 1},
        cap(w, new long[] {0, 0}, new long[] {2, 3}, OptionalLong.empty(), OptionalLong.of(100)));
  }

  @Test
  void anUnknownWeightBeforeARangeMakesABatchOfItsFirstRow() {
    Weights w = new Weights(rowsOf(10, 1), rowsOf(10, 1));
    long[] ends =
        ByteBudget.cap(
            new long[] {3, 4},
            new long[] {10, 10},
            new long[] {3, ByteBudget.UNKNOWN},
            w,
            OptionalLong.of(1000),
            OptionalLong.empty());
    assertArrayEquals(new long[] {3, 5}, ends);
  }

  /**
   * Random rows and caps: every range within [lower, upper]; a range over max_bytes_per_partition
   * is one row; a batch over max_bytes_per_trigger is one row; a batch is never empty when rows
   * wait; a batch within both caps is left whole; and the values asked for stay within the bound.
   */
  @Test
  void randomCasesKeepTheCapsAndAlwaysMove() {
    SplittableRandom random = new SplittableRandom(31);
    for (int round = 0; round < 3000; round++) {
      int n = 1 + random.nextInt(5);
      long[][] rows = new long[n][];
      long[] lowers = new long[n];
      long[] uppers = new long[n];
      for (int p = 0; p < n; p++) {
        rows[p] = new long[random.nextInt(60)];
        for (int r = 0; r < rows[p].length; r++) {
          rows[p][r] = random.nextInt(10) == 0 ? 1 + random.nextInt(500) : 1 + random.nextInt(40);
        }
        lowers[p] = rows[p].length == 0 ? 0 : random.nextInt(rows[p].length + 1);
        uppers[p] =
            lowers[p]
                + (rows[p].length == lowers[p]
                    ? 0
                    : random.nextInt(rows[p].length - (int) lowers[p] + 1));
      }
      Weights w = new Weights(rows);
      OptionalLong perPartition =
          random.nextBoolean() ? OptionalLong.of(1 + random.nextInt(400)) : OptionalLong.empty();
      OptionalLong perTrigger =
          random.nextBoolean() ? OptionalLong.of(1 + random.nextInt(800)) : OptionalLong.empty();
      long[] ends = cap(w, lowers, uppers, perPartition, perTrigger);
      long total = 0;
      long rowsTaken = 0;
      long available = 0;
      boolean withinCaps = true;
      for (int p = 0; p < n; p++) {
        assertTrue(ends[p] >= lowers[p] && ends[p] <= uppers[p], "round " + round);
        long bytes = w.bytes(p, lowers[p], ends[p]);
        if (perPartition.isPresent() && bytes > perPartition.getAsLong()) {
          assertEquals(1, ends[p] - lowers[p], "round " + round + ": only one row over the cap");
        }
        total += bytes;
        rowsTaken += ends[p] - lowers[p];
        available += uppers[p] - lowers[p];
        long all = w.bytes(p, lowers[p], uppers[p]);
        withinCaps &= perPartition.isEmpty() || all <= perPartition.getAsLong();
      }
      if (perTrigger.isPresent() && total > perTrigger.getAsLong()) {
        assertEquals(1, rowsTaken, "round " + round + ": only one row over the trigger cap");
      }
      if (available > 0) {
        assertTrue(rowsTaken > 0, "round " + round + ": the batch moves");
      }
      long whole = 0;
      for (int p = 0; p < n; p++) {
        whole += w.bytes(p, lowers[p], uppers[p]);
      }
      if (withinCaps && (perTrigger.isEmpty() || whole <= perTrigger.getAsLong())) {
        assertArrayEquals(uppers, ends, "round " + round + ": within both caps nothing is cut");
      }
      int bound = 0;
      int distinctBound = 0;
      for (int p = 0; p < n; p++) {
        long size = uppers[p] - lowers[p];
        if (size > 0) {
          int log = 64 - Long.numberOfLeadingZeros(size - 1); // ceil(log2(size))
          bound += 3 * (log + 2) + 1;
          distinctBound += 3 * log + 1;
        }
      }
      assertTrue(w.calls <= bound, "round " + round + ": " + w.calls + " values, bound " + bound);
      assertTrue(
          w.distinct.size() <= distinctBound,
          "round " + round + ": " + w.distinct.size() + " rows, bound " + distinctBound);
    }
  }
}
