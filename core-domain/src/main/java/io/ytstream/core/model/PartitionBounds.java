package io.ytstream.core.model;

/**
 * What a queue partition holds now: rows {@code [trimmedRowCount, totalRowCount)} are readable
 * (YTsaurus {@code get_tablet_infos}: {@code trimmed_row_count}, {@code total_row_count}).
 */
public record PartitionBounds(int index, long trimmedRowCount, long totalRowCount) {

  public PartitionBounds {
    if (index < 0) {
      throw new IllegalArgumentException("partition index must be >= 0, got " + index);
    }
    if (trimmedRowCount < 0 || totalRowCount < trimmedRowCount) {
      throw new IllegalArgumentException(
          "partition "
              + index
              + ": need 0 <= trimmed_row_count ("
              + trimmedRowCount
              + ") <= total_row_count ("
              + totalRowCount
              + ")");
    }
  }
}
