package io.ytstream.core.plan;

import io.ytstream.core.model.PartitionId;

/**
 * Rows {@code [requestedOffset, firstAvailableRow)} of a partition were trimmed before being read.
 */
public record DataLoss(PartitionId partition, long requestedOffset, long firstAvailableRow) {

  public DataLoss {
    if (firstAvailableRow <= requestedOffset) {
      throw new IllegalArgumentException(
          "no rows lost: " + requestedOffset + " >= " + firstAvailableRow);
    }
  }

  public long lostRows() {
    return firstAvailableRow - requestedOffset;
  }

  @Override
  public String toString() {
    return partition
        + ": rows ["
        + requestedOffset
        + ", "
        + firstAvailableRow
        + ") were trimmed before they were read ("
        + lostRows()
        + " rows)";
  }
}
