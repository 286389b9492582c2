package io.ytstream.spark.realtime;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * One real-time task: a queue partition and the row index to start at. The task has no end; it
 * reads until Spark's batch duration is over.
 */
public final class YtRealTimeInputPartition implements InputPartition {

  private static final long serialVersionUID = 1L;

  private final String queueKey;
  private final int index;
  private final long start;

  public YtRealTimeInputPartition(PartitionId partition, long start) {
    this.queueKey = partition.queue().key();
    this.index = partition.index();
    this.start = start;
  }

  PartitionId partition() {
    return new PartitionId(QueueId.parseKey(queueKey), index);
  }

  long start() {
    return start;
  }

  @Override
  public String toString() {
    return partition() + " from " + start;
  }
}
