package io.ytstream.spark.realtime;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.spark.sql.connector.read.streaming.PartitionOffset;

/**
 * Where one real-time task stands in each queue partition it reads: the next row index it would
 * read, for every partition of the task, rows or not (a partition that stayed quiet reports its
 * start). Spark collects one of these from each task at the end of a real-time batch and hands them
 * all to {@code mergeOffsets}.
 */
public record YtPartitionOffset(List<End> ends) implements PartitionOffset {

  /** One partition's next row index. */
  public record End(String queueKey, int index, long offset) implements Serializable {
    private static final long serialVersionUID = 1L;

    PartitionId partition() {
      return new PartitionId(QueueId.parseKey(queueKey), index);
    }
  }

  public YtPartitionOffset {
    ends = List.copyOf(ends);
  }

  /** A task of one partition. */
  public YtPartitionOffset(PartitionId partition, long offset) {
    this(Map.of(partition, offset));
  }

  public YtPartitionOffset(Map<PartitionId, Long> next) {
    this(
        new TreeMap<>(next)
            .entrySet().stream()
                .map(e -> new End(e.getKey().queue().key(), e.getKey().index(), e.getValue()))
                .toList());
  }

  /** Each partition's next row index. */
  public SortedMap<PartitionId, Long> next() {
    TreeMap<PartitionId, Long> out = new TreeMap<>();
    for (End e : ends) {
      out.put(e.partition(), e.offset());
    }
    return out;
  }
}
