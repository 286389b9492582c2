package io.ytstream.core.plan;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;

/**
 * Caps a batch's ranges by data weight, as Spark's file source caps a batch by {@code
 * maxBytesPerTrigger}: rows are taken while the bytes so far stay within the cap, and a single row
 * larger than the cap is taken alone so the stream always moves. The bytes of a range are measured
 * with {@code $cumulative_data_weight} ({@link CumulativeWeights}).
 *
 * <ol>
 *   <li>{@code max_bytes_per_partition}: each range ends at its last row within the cap; a range
 *       whose first row alone is larger keeps that one row.
 *   <li>{@code max_bytes_per_trigger}, when the ranges hold more together: each range gets a share
 *       of the cap in proportion to its bytes, rounded down, and ends at its last row within its
 *       share; what row boundaries left over goes to the ranges with the most bytes left, one after
 *       another (ties: range order). When no row fits at all, the batch is the first row of the
 *       range with the most bytes (ties: range order): a single row larger than the cap.
 * </ol>
 *
 * <p>A range whose weight before its first row is unknown (that row is trimmed: the values are the
 * tablet's running total since its first row ever, {@code ordered_dynamic_store.cpp}, {@code
 * WriteRow}, and {@code tablet.cpp}, {@code IncreaseCumulativeDataWeight}) cannot be measured; the
 * batch is then that range's first row alone, after which the caller knows the weight it needs for
 * the next batch.
 *
 * <p>Cost: the ends are found by bisection over row indexes, one per step above, so a range of
 * {@code rows} rows asks for at most {@code 3 * ceil(log2(rows)) + 1} distinct values ({@code 3 *
 * (ceil(log2(rows)) + 2) + 1} with repeats, which a caller that remembers what it read answers for
 * free). Pure and deterministic: the same values give the same ends.
 */
public final class ByteBudget {

  /** A weight before a range's first row that cannot be known. */
  public static final long UNKNOWN = -1;

  private ByteBudget() {}

  /**
   * The ends of the ranges {@code [lowers[i], uppers[i])} under the caps.
   *
   * @param bases the value at {@code lowers[i] - 1} (0 when {@code lowers[i]} is the partition's
   *     row 0), or {@link #UNKNOWN}
   * @return each range's end, between {@code lowers[i]} and {@code uppers[i]}
   */
  public static long[] cap(
      long[] lowers,
      long[] uppers,
      long[] bases,
      CumulativeWeights weights,
      OptionalLong perPartition,
      OptionalLong perTrigger) {
    int n = lowers.length;
    if (uppers.length != n || bases.length != n) {
      throw new IllegalArgumentException("lowers, uppers and bases must have one entry per range");
    }
    long[] ends = uppers.clone();
    if (perPartition.isEmpty() && perTrigger.isEmpty()) {
      return ends;
    }
    for (int i = 0; i < n; i++) {
      if (ends[i] > lowers[i] && bases[i] < 0) {
        long[] one = lowers.clone();
        one[i] = lowers[i] + 1;
        return one;
      }
    }
    long[] bytes = new long[n];
    for (int i = 0; i < n; i++) {
      if (ends[i] <= lowers[i]) {
        continue;
      }
      bytes[i] = weightOf(weights, i, ends[i], bases[i]);
      if (perPartition.isPresent() && bytes[i] > perPartition.getAsLong()) {
        long limit = plus(bases[i], perPartition.getAsLong());
        ends[i] = Math.max(lowers[i] + 1, largestEnd(weights, i, lowers[i], ends[i], limit));
        bytes[i] = weightOf(weights, i, ends[i], bases[i]);
      }
    }
    if (perTrigger.isEmpty()) {
      return ends;
    }
    long cap = perTrigger.getAsLong();
    BigInteger total = BigInteger.ZERO;
    for (long b : bytes) {
      total = total.add(BigInteger.valueOf(b));
    }
    if (total.compareTo(BigInteger.valueOf(cap)) <= 0) {
      return ends;
    }
    long[] capped = lowers.clone();
    long[] taken = new long[n];
    long used = 0;
    for (int i = 0; i < n; i++) {
      if (ends[i] <= lowers[i]) {
        continue;
      }
      long share =
          BigInteger.valueOf(cap).multiply(BigInteger.valueOf(bytes[i])).divide(total).longValue();
      if (bytes[i] <= share) {
        capped[i] = ends[i];
        taken[i] = bytes[i];
      } else {
        capped[i] = largestEnd(weights, i, lowers[i], ends[i], plus(bases[i], share));
        taken[i] = capped[i] > lowers[i] ? weightOf(weights, i, capped[i], bases[i]) : 0;
      }
      used += taken[i];
    }
    long left = cap - used;
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (capped[i] < ends[i]) {
        order.add(i);
      }
    }
    order.sort(
        Comparator.comparingLong((Integer i) -> bytes[i] - taken[i])
            .reversed()
            .thenComparingInt(i -> i));
    for (int i : order) {
      if (left <= 0) {
        break;
      }
      long end = largestEnd(weights, i, capped[i], ends[i], plus(bases[i], plus(taken[i], left)));
      if (end > capped[i]) {
        long now = weightOf(weights, i, end, bases[i]);
        left -= now - taken[i];
        taken[i] = now;
        capped[i] = end;
      }
    }
    int largest = -1;
    for (int i = 0; i < n; i++) {
      if (capped[i] > lowers[i]) {
        return capped;
      }
      if (ends[i] > lowers[i] && (largest < 0 || bytes[i] > bytes[largest])) {
        largest = i;
      }
    }
    if (largest >= 0) {
      capped[largest] = lowers[largest] + 1;
    }
    return capped;
  }

  /** The bytes of rows from the range's first row up to {@code end}. */
  private static long weightOf(CumulativeWeights weights, int range, long end, long base) {
    long value = weights.at(range, end - 1);
    return value == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(0, value - base);
  }

  /**
   * The largest {@code e} in {@code [from, to]} whose row {@code e - 1} has a value within {@code
   * limit}, or {@code from}; the row before {@code from} is known to be within it.
   */
  private static long largestEnd(
      CumulativeWeights weights, int range, long from, long to, long limit) {
    if (to <= from) {
      return from;
    }
    if (weights.at(range, to - 1) <= limit) {
      return to;
    }
    long within = from - 1;
    long over = to - 1;
    while (over - within > 1) {
      long mid = within + (over - within) / 2;
      if (weights.at(range, mid) <= limit) {
        within = mid;
      } else {
        over = mid;
      }
    }
    return within + 1;
  }

  private static long plus(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }
}
