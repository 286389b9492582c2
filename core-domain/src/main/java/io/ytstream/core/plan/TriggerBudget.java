package io.ytstream.core.plan;

/**
 * Splits a trigger's total row cap across partitions in proportion to their backlog, as Kafka's
 * {@code maxOffsetsPerTrigger} does, but exactly: the batch reads {@code min(cap, backlog)} rows,
 * never more. Each partition gets its share of the cap by backlog, rounded down; the rows rounding
 * left over go to the largest remainders (ties: partition order). A partition with rows gets at
 * least one while the cap allows one each, so a small partition beside large ones is never starved.
 * Pure and deterministic.
 */
final class TriggerBudget {

  private TriggerBudget() {}

  /**
   * Lowers {@code uppers} so that the ranges {@code [lowers[i], uppers[i])} hold at most {@code
   * maxRows} rows together.
   */
  static void apply(long maxRows, long[] lowers, long[] uppers) {
    int n = lowers.length;
    long total = 0;
    int nonEmpty = 0;
    for (int i = 0; i < n; i++) {
      long size = uppers[i] - lowers[i];
      if (size > 0) {
        total += size;
        nonEmpty++;
      }
    }
    if (total <= maxRows) {
      return;
    }
    long[] grant = new long[n];
    if (maxRows < nonEmpty) {
      // One row each for the partitions with the largest backlog.
      for (long given = 0; given < maxRows; given++) {
        int best = -1;
        for (int i = 0; i < n; i++) {
          if (grant[i] == 0
              && uppers[i] > lowers[i]
              && (best < 0 || uppers[i] - lowers[i] > uppers[best] - lowers[best])) {
            best = i;
          }
        }
        grant[best] = 1;
      }
    } else {
      double[] remainder = new double[n];
      long given = 0;
      for (int i = 0; i < n; i++) {
        long size = uppers[i] - lowers[i];
        if (size <= 0) {
          continue;
        }
        double share = (double) maxRows * size / total;
        grant[i] = Math.min(size, (long) Math.floor(share));
        remainder[i] = share - grant[i];
        if (grant[i] == 0) {
          grant[i] = 1;
          remainder[i] = -1;
        }
        given += grant[i];
      }
      // Rounding left rows over: to the largest remainders. The one-row minimums may have taken
      // too many: back from the largest grants.
      for (long left = maxRows - given; left > 0; left--) {
        int best = -1;
        for (int i = 0; i < n; i++) {
          if (grant[i] < uppers[i] - lowers[i] && (best < 0 || remainder[i] > remainder[best])) {
            best = i;
          }
        }
        grant[best]++;
        remainder[best] = -1;
      }
      for (long over = given - maxRows; over > 0; over--) {
        int best = 0;
        for (int i = 1; i < n; i++) {
          if (grant[i] > grant[best]) {
            best = i;
          }
        }
        grant[best]--;
      }
    }
    for (int i = 0; i < n; i++) {
      if (uppers[i] > lowers[i]) {
        uppers[i] = lowers[i] + grant[i];
      }
    }
  }
}
