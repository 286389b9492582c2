package io.ytstream.core.plan;

import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.SortedPartitionMap;
import io.ytstream.core.model.StreamOffsets;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The current bounds of every partition of every queue a stream reads, in partition order. Held as
 * arrays sorted by partition, read by position ({@link #partitionAt}, {@link #boundsAt}) in the
 * planner's passes; {@link #asMap} is a read-only view.
 */
public final class QueueBounds {

  private final PartitionId[] partitions;
  private final PartitionBounds[] bounds;
  private final SortedMap<PartitionId, PartitionBounds> view;

  private QueueBounds(PartitionId[] partitions, PartitionBounds[] bounds) {
    this.partitions = partitions;
    this.bounds = bounds;
    this.view = SortedPartitionMap.over(partitions, i -> bounds[i]);
  }

  /**
   * @param byQueue each queue's partitions as {@code QueueMetadata.partitions} returns them (index
   *     {@code 0..n-1} in order)
   */
  public static QueueBounds of(Map<QueueId, List<PartitionBounds>> byQueue) {
    SortedMap<QueueId, List<PartitionBounds>> sorted =
        byQueue instanceof SortedMap<QueueId, List<PartitionBounds>> given
                && given.comparator() == null
            ? given
            : new TreeMap<>(byQueue);
    int total = 0;
    for (List<PartitionBounds> partitions : sorted.values()) {
      total += partitions.size();
    }
    PartitionId[] ids = new PartitionId[total];
    PartitionBounds[] all = new PartitionBounds[total];
    int at = 0;
    for (Map.Entry<QueueId, List<PartitionBounds>> entry : sorted.entrySet()) {
      QueueId queue = entry.getKey();
      List<PartitionBounds> partitions = entry.getValue();
      for (int i = 0; i < partitions.size(); i++) {
        PartitionBounds p = partitions.get(i);
        if (p.index() != i) {
          throw new IllegalArgumentException(
              "partitions of "
                  + queue
                  + " must be listed by index 0..n-1; entry "
                  + i
                  + " has index "
                  + p.index());
        }
        ids[at] = new PartitionId(queue, i);
        all[at] = p;
        at++;
      }
    }
    return new QueueBounds(ids, all);
  }

  public static QueueBounds ofQueue(QueueId queue, List<PartitionBounds> partitions) {
    return of(Map.of(queue, partitions));
  }

  public SortedMap<PartitionId, PartitionBounds> asMap() {
    return view;
  }

  /** The bounds of {@code partition}, or null when no listed queue has it. */
  public PartitionBounds get(PartitionId partition) {
    return view.get(partition);
  }

  /** How many partitions all queues have together. */
  public int size() {
    return partitions.length;
  }

  /** The partition at {@code position} ({@code 0 <= position < size()}), in partition order. */
  public PartitionId partitionAt(int position) {
    return partitions[position];
  }

  /** The bounds of {@link #partitionAt partitionAt(position)}. */
  public PartitionBounds boundsAt(int position) {
    return bounds[position];
  }

  /**
   * These bounds with each partition's end raised to at least its offset in {@code read}, where
   * readers have already been: bounds read a moment ago (Real-time Mode reads them ahead of the
   * batch boundary) may be behind rows that tasks read since. Partitions not in {@code read} keep
   * their bounds; offsets of partitions not listed here are ignored.
   */
  public QueueBounds atLeast(StreamOffsets read) {
    PartitionBounds[] raised = null;
    for (int i = 0; i < partitions.length; i++) {
      long offset = read.getOrDefault(partitions[i], -1);
      if (offset > bounds[i].totalRowCount()) {
        if (raised == null) {
          raised = bounds.clone();
        }
        raised[i] = new PartitionBounds(bounds[i].index(), bounds[i].trimmedRowCount(), offset);
      }
    }
    return raised == null ? this : new QueueBounds(partitions, raised);
  }

  /**
   * These bounds capped at {@code target} (Trigger.AvailableNow: rows that arrive after the query
   * began wait for the next run). A partition {@code target} does not know gets no rows.
   */
  public QueueBounds cappedAt(QueueBounds target) {
    PartitionBounds[] capped = new PartitionBounds[partitions.length];
    for (int i = 0; i < partitions.length; i++) {
      PartitionBounds b = bounds[i];
      PartitionBounds t = target.get(partitions[i]);
      long total = t == null ? b.trimmedRowCount() : Math.min(b.totalRowCount(), t.totalRowCount());
      long trimmed = Math.min(b.trimmedRowCount(), total);
      capped[i] = new PartitionBounds(b.index(), trimmed, total);
    }
    return new QueueBounds(partitions, capped);
  }

  /**
   * Rows between {@code start} (or a partition's first row, when later or not given) and each
   * partition's end, over all partitions: what a trigger's minimum is compared with.
   */
  public long rowsAfter(StreamOffsets start) {
    long sum = 0;
    for (int i = 0; i < partitions.length; i++) {
      PartitionBounds b = bounds[i];
      long from = Math.max(start.getOrDefault(partitions[i], 0), b.trimmedRowCount());
      sum += Math.max(0, b.totalRowCount() - from);
    }
    return sum;
  }
}
