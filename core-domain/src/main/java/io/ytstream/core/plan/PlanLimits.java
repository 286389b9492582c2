package io.ytstream.core.plan;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * Limits for one batch plan.
 *
 * @param maxRowsPerPartition most rows read from one partition in one batch ({@code
 *     max_rows_per_partition}); {@link #DEFAULT_MAX_ROWS_PER_PARTITION} unless set, because an
 *     unlimited first batch over a large backlog runs executors out of memory
 * @param dataLossPolicy what to do about trimmed rows
 * @param maxBytesPerPartition most data weight read from one partition in one batch ({@code
 *     max_bytes_per_partition}, measured by {@code $cumulative_data_weight}; {@link ByteBudget})
 * @param taskSplit how the batch's ranges are cut into tasks ({@code min_tasks}, {@code
 *     max_rows_per_task}; {@link TaskAssigner}): it decides who reads a batch's rows, never which
 *     rows a batch has
 */
public record PlanLimits(
    long maxRowsPerPartition,
    DataLossPolicy dataLossPolicy,
    OptionalLong maxBytesPerPartition,
    TaskSplit taskSplit) {

  /** The safe default for {@code max_rows_per_partition} (SPYT's default is unlimited). */
  public static final long DEFAULT_MAX_ROWS_PER_PARTITION = 100_000;

  public PlanLimits {
    if (maxRowsPerPartition < 1) {
      throw new IllegalArgumentException(
          "max_rows_per_partition must be >= 1, got " + maxRowsPerPartition);
    }
    Objects.requireNonNull(dataLossPolicy, "dataLossPolicy");
    Objects.requireNonNull(maxBytesPerPartition, "maxBytesPerPartition");
    Objects.requireNonNull(taskSplit, "taskSplit");
    if (maxBytesPerPartition.isPresent() && maxBytesPerPartition.getAsLong() < 1) {
      throw new IllegalArgumentException(
          "max_bytes_per_partition must be >= 1, got " + maxBytesPerPartition.getAsLong());
    }
  }

  /** Limits with one task per range. */
  public PlanLimits(
      long maxRowsPerPartition, DataLossPolicy dataLossPolicy, OptionalLong maxBytesPerPartition) {
    this(maxRowsPerPartition, dataLossPolicy, maxBytesPerPartition, TaskSplit.none());
  }

  /** Limits by rows only. */
  public PlanLimits(long maxRowsPerPartition, DataLossPolicy dataLossPolicy) {
    this(maxRowsPerPartition, dataLossPolicy, OptionalLong.empty());
  }

  /** These limits with {@code max_bytes_per_partition} set to {@code maxBytes}. */
  public PlanLimits withMaxBytesPerPartition(OptionalLong maxBytes) {
    return new PlanLimits(maxRowsPerPartition, dataLossPolicy, maxBytes, taskSplit);
  }

  /** These limits with the batch's ranges cut into tasks as {@code split} says. */
  public PlanLimits withTaskSplit(TaskSplit split) {
    return new PlanLimits(maxRowsPerPartition, dataLossPolicy, maxBytesPerPartition, split);
  }

  public static PlanLimits defaults() {
    return new PlanLimits(DEFAULT_MAX_ROWS_PER_PARTITION, DataLossPolicy.FAIL);
  }

  public static PlanLimits of(long maxRowsPerPartition, DataLossPolicy policy) {
    return new PlanLimits(maxRowsPerPartition, policy);
  }
}
