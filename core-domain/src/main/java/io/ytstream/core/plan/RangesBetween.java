package io.ytstream.core.plan;

import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.StreamOffsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The ranges a batch reads between two offsets: the batch's start (the end of the batch before) and
 * its end. The recovery of batch N reads them from {@code offsets/N-1} and {@code offsets/N}.
 */
public final class RangesBetween {

  private RangesBetween() {}

  /**
   * The non-empty ranges from {@code start} to {@code end}, in partition order. A partition missing
   * from {@code start} has no rows: new partitions are placed by a batch of their own ({@link
   * NewPartitionPlacement}) before they are read.
   *
   * @throws IllegalStateException when an offset of {@code end} is below its start
   */
  public static List<OffsetRange> of(StreamOffsets start, StreamOffsets end) {
    List<OffsetRange> ranges = new ArrayList<>();
    end.asMap()
        .forEach(
            (p, upper) -> {
              long lower = start.getOrDefault(p, upper);
              if (upper < lower) {
                throw new IllegalStateException(
                    "offsets move backwards for " + p + ": " + lower + " -> " + upper);
              }
              if (upper > lower) {
                ranges.add(new OffsetRange(p, lower, upper));
              }
            });
    return ranges;
  }
}
