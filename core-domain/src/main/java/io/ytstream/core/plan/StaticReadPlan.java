package io.ytstream.core.plan;

import io.ytstream.core.model.OffsetRange;
import java.util.List;

/**
 * What a static read of a range reads: its tasks' ranges, each at most the task size, in partition
 * order; and the rows below a partition's first row that the range asked for and that were trimmed,
 * skipped under {@link DataLossPolicy#SKIP_AND_REPORT}.
 */
public record StaticReadPlan(List<OffsetRange> ranges, List<DataLoss> losses) {

  public StaticReadPlan {
    ranges = List.copyOf(ranges);
    losses = List.copyOf(losses);
  }

  public long lostRowCount() {
    long sum = 0;
    for (DataLoss loss : losses) {
      sum += loss.lostRows();
    }
    return sum;
  }
}
