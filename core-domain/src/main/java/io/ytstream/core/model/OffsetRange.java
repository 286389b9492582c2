package io.ytstream.core.model;

import java.util.Objects;

/**
 * The half-open row range {@code [lower, upper)} of one partition. {@code lower} is the first row
 * to read; {@code upper} is the offset to store once the range is processed (first unprocessed
 * row).
 */
public record OffsetRange(PartitionId partition, long lower, long upper) {

  public OffsetRange {
    Objects.requireNonNull(partition, "partition");
    if (lower < 0 || upper < lower) {
      throw new IllegalArgumentException(
          "invalid range ["
              + lower
              + ", "
              + upper
              + ") for "
              + partition
              + ": need 0 <= lower <= upper");
    }
  }

  public long rowCount() {
    return upper - lower;
  }

  public boolean isEmpty() {
    return upper == lower;
  }

  public boolean contains(long rowIndex) {
    return rowIndex >= lower && rowIndex < upper;
  }

  @Override
  public String toString() {
    return partition + "[" + lower + "," + upper + ")";
  }
}
