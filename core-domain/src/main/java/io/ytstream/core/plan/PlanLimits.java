package io.ytstream.core.plan;

import java.util.Objects;

/**
 * Limits for one batch plan.
 *
 * @param maxRowsPerPartition most rows read from one partition in one batch ({@code
 *     max_rows_per_partition}); {@link #DEFAULT_MAX_ROWS_PER_PARTITION} unless set, because an
 *     unlimited first batch over a large backlog runs executors out of memory
 * @param dataLossPolicy what to do about trimmed rows
 */
public record PlanLimits(long maxRowsPerPartition, DataLossPolicy dataLossPolicy) {

  /** The safe default for {@code max_rows_per_partition} (SPYT's default is unlimited). */
  public static final long DEFAULT_MAX_ROWS_PER_PARTITION = 100_000;

  public PlanLimits {
    if (maxRowsPerPartition < 1) {
      throw new IllegalArgumentException(
          "max_rows_per_partition must be >= 1, got " + maxRowsPerPartition);
    }
    Objects.requireNonNull(dataLossPolicy, "dataLossPolicy");
  }

  public static PlanLimits defaults() {
    return new PlanLimits(DEFAULT_MAX_ROWS_PER_PARTITION, DataLossPolicy.FAIL);
  }

  public static PlanLimits of(long maxRowsPerPartition, DataLossPolicy policy) {
    return new PlanLimits(maxRowsPerPartition, policy);
  }
}
