package io.ytstream.core.plan;

/**
 * The {@code $cumulative_data_weight} of rows of the ranges a batch reads: each row's value is the
 * data weight of its partition's rows up to and including it, so the bytes of rows {@code [a, b)}
 * are the value at {@code b - 1} minus the value at {@code a - 1}. The values grow with the row
 * index; {@link ByteBudget} asks for few of them, and the caller decides how it reads them.
 */
@FunctionalInterface
public interface CumulativeWeights {

  /**
   * The value at {@code rowIndex} of the range at position {@code range}. A caller that can no
   * longer read the row (trimmed since) may answer with the value of a later row, or {@link
   * Long#MAX_VALUE} when there is none: both keep the answers growing with the row index and only
   * make the batch smaller.
   */
  long at(int range, long rowIndex);
}
