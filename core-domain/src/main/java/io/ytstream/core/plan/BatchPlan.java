package io.ytstream.core.plan;

import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import java.util.ArrayList;
import java.util.Collections;
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
   *
   * <p>Unmodifiable. When the moves are exactly the reads (nothing skipped), this is {@link
   * #ranges} itself: the planner's usual case costs one pass and no new ranges.
   */
  public List<OffsetRange> commitRanges() {
    Map<PartitionId, Long> requested = requestedOffsets();
    if (commitRangesAreRanges(requested)) {
      return ranges;
    }
    List<OffsetRange> result = new ArrayList<>(end.size());
    StreamOffsets.Cursor startAt = start.cursor();
    for (int i = 0; i < end.size(); i++) {
      PartitionId partition = end.partitionAt(i);
      long to = end.offsetAt(i);
      long from = from(partition, to, requested, startAt);
      if (to > from) {
        result.add(new OffsetRange(partition, from, to));
      }
    }
    return Collections.unmodifiableList(result);
  }

  /** Whether {@link #commitRanges} equals {@link #ranges}, found without building anything. */
  @SuppressWarnings("ReferenceEquality") // identity first, equals when the objects differ
  private boolean commitRangesAreRanges(Map<PartitionId, Long> requested) {
    StreamOffsets.Cursor startAt = start.cursor();
    int matched = 0;
    for (int i = 0; i < end.size(); i++) {
      PartitionId partition = end.partitionAt(i);
      long to = end.offsetAt(i);
      long from = from(partition, to, requested, startAt);
      if (to > from) {
        if (matched == ranges.size()) {
          return false;
        }
        OffsetRange read = ranges.get(matched++);
        if (read.lower() != from
            || read.upper() != to
            || (read.partition() != partition && !read.partition().equals(partition))) {
          return false;
        }
      }
    }
    return matched == ranges.size();
  }

  /**
   * Where the consumer stands for {@code partition}: below skipped rows, else at {@link #start}.
   */
  private static long from(
      PartitionId partition,
      long to,
      Map<PartitionId, Long> requested,
      StreamOffsets.Cursor startAt) {
    Long skippedFrom = requested.isEmpty() ? null : requested.get(partition);
    return skippedFrom != null ? skippedFrom : startAt.getOrDefault(partition, to);
  }

  /** The offset each partition with skipped trimmed rows was asked from (the last loss wins). */
  private Map<PartitionId, Long> requestedOffsets() {
    if (losses.isEmpty()) {
      return Map.of();
    }
    TreeMap<PartitionId, Long> requested = new TreeMap<>();
    for (DataLoss loss : losses) {
      requested.put(loss.partition(), loss.requestedOffset());
    }
    return requested;
  }

  /**
   * True when some offset moves (rows to read, or trimmed rows skipped): Spark runs a batch exactly
   * when its end differs from its start.
   */
  public boolean movesOffsets() {
    Map<PartitionId, Long> requested = requestedOffsets();
    StreamOffsets.Cursor startAt = start.cursor();
    for (int i = 0; i < end.size(); i++) {
      long to = end.offsetAt(i);
      if (to > from(end.partitionAt(i), to, requested, startAt)) {
        return true;
      }
    }
    return false;
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
