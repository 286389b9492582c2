package io.ytstream.core.plan;

import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One planned batch.
 *
 * @param start where each partition's read starts (after skipping trimmed rows, if allowed; see
 *     {@link #commitRanges} for where the consumer stands)
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

  /** True when there are rows to read. */
  public boolean hasData() {
    return !ranges.isEmpty();
  }

  /**
   * The offset moves this batch stands for, one range per partition whose offset moves: from where
   * the consumer and checkpoint stand (the requested offset, below any skipped trimmed rows) to
   * {@link #end}. These, not {@link #ranges}, are what the consumer advances by and what the
   * transactional recovery table compares with: after skipping trimmed rows the consumer is still
   * at the requested offset, not at the first surviving row.
   */
  public List<OffsetRange> commitRanges() {
    TreeMap<PartitionId, Long> requested = new TreeMap<>();
    for (DataLoss loss : losses) {
      requested.put(loss.partition(), loss.requestedOffset());
    }
    List<OffsetRange> result = new ArrayList<>();
    for (Map.Entry<PartitionId, Long> entry : end.asMap().entrySet()) {
      PartitionId partition = entry.getKey();
      Long skippedFrom = requested.get(partition);
      long from =
          skippedFrom != null ? skippedFrom : start.getOrDefault(partition, entry.getValue());
      if (entry.getValue() > from) {
        result.add(new OffsetRange(partition, from, entry.getValue()));
      }
    }
    return result;
  }

  /**
   * True when some offset moves (rows to read, or trimmed rows skipped): Spark runs a batch exactly
   * when its end differs from its start.
   */
  public boolean movesOffsets() {
    return !commitRanges().isEmpty();
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
