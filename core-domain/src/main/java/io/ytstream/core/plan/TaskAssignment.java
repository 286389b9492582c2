package io.ytstream.core.plan;

import io.ytstream.core.model.OffsetRange;
import java.util.List;

/** The ranges one task reads. */
public record TaskAssignment(int task, List<OffsetRange> ranges) {

  public TaskAssignment {
    ranges = List.copyOf(ranges);
  }

  public long rowCount() {
    long sum = 0;
    for (OffsetRange range : ranges) {
      sum += range.rowCount();
    }
    return sum;
  }
}
