package io.ytstream.core.plan;

import io.ytstream.core.model.PartitionId;
import java.util.List;

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

  /** How many rows {@code losses} lost together. */
  public static long totalRows(List<DataLoss> losses) {
    long sum = 0;
    for (DataLoss loss : losses) {
      sum += loss.lostRows();
    }
    return sum;
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
