package io.ytstream.core.plan;

import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.StreamOffsets;
import java.util.List;
import java.util.Objects;

/**
 * One planned batch.
 *
 * @param start where each partition starts (after skipping trimmed rows, if allowed)
 * @param end the offsets to store once the batch is processed (every known partition)
 * @param ranges the non-empty ranges to read, in partition order
 * @param losses trimmed rows that were skipped (empty unless the policy allows skipping)
 */
public record BatchPlan(
    StreamOffsets start, StreamOffsets end, List<OffsetRange> ranges, List<DataLoss> losses) {

  public BatchPlan {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(end, "end");
    ranges = List.copyOf(ranges);
    losses = List.copyOf(losses);
  }

  /** False when every partition is empty: Spark runs no batch then. */
  public boolean hasData() {
    return !ranges.isEmpty();
  }

  public long rowCount() {
    long sum = 0;
    for (OffsetRange range : ranges) {
      sum += range.rowCount();
    }
    return sum;
  }

  public long lostRowCount() {
    long sum = 0;
    for (DataLoss loss : losses) {
      sum += loss.lostRows();
    }
    return sum;
  }
}
