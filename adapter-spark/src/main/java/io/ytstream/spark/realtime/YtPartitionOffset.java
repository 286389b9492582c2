package io.ytstream.spark.realtime;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import org.apache.spark.sql.connector.read.streaming.PartitionOffset;

/**
 * Where one real-time task stands in its queue partition: the next row index it would read. Spark
 * collects these from the tasks at the end of a real-time batch and hands them to {@code
 * mergeOffsets}.
 */
public record YtPartitionOffset(String queueKey, int index, long offset)
    implements PartitionOffset {

  public YtPartitionOffset(PartitionId partition, long offset) {
    this(partition.queue().key(), partition.index(), offset);
  }

  public PartitionId partition() {
    return new PartitionId(QueueId.parseKey(queueKey), index);
  }
}
