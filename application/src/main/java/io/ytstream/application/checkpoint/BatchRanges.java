package io.ytstream.application.checkpoint;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.QueueId;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The ranges one batch reads from the yt sources of a query, and the consumer of each queue, as the
 * checkpoint has them.
 */
public record BatchRanges(List<OffsetRange> ranges, Map<QueueId, ConsumerId> consumers) {
  public BatchRanges {
    ranges = List.copyOf(ranges);
    consumers = new TreeMap<>(consumers);
  }
}
