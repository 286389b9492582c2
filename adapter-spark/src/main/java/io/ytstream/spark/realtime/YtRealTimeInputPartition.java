package io.ytstream.spark.realtime;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * One real-time task: its queue partitions (one, or up to {@code real_time_partitions_per_task})
 * and the row index each starts at. The task has no end; it reads until Spark's batch duration is
 * over.
 */
public final class YtRealTimeInputPartition implements InputPartition {

  private static final long serialVersionUID = 2L;

  private final String[] queueKeys;
  private final int[] indexes;
  private final long[] starts;

  public YtRealTimeInputPartition(PartitionId partition, long start) {
    this(Map.of(partition, start));
  }

  public YtRealTimeInputPartition(Map<PartitionId, Long> starts) {
    if (starts.isEmpty()) {
      throw new IllegalArgumentException("a real-time task reads at least one partition");
    }
    TreeMap<PartitionId, Long> sorted = new TreeMap<>(starts);
    this.queueKeys = new String[sorted.size()];
    this.indexes = new int[sorted.size()];
    this.starts = new long[sorted.size()];
    int i = 0;
    for (Map.Entry<PartitionId, Long> e : sorted.entrySet()) {
      queueKeys[i] = e.getKey().queue().key();
      indexes[i] = e.getKey().index();
      this.starts[i] = e.getValue();
      i++;
    }
  }

  /** The task's partitions, in order, each with its start. */
  SortedMap<PartitionId, Long> starts() {
    TreeMap<PartitionId, Long> out = new TreeMap<>();
    for (int i = 0; i < queueKeys.length; i++) {
      out.put(new PartitionId(QueueId.parseKey(queueKeys[i]), indexes[i]), starts[i]);
    }
    return out;
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    starts()
        .forEach(
            (p, from) -> out.append(out.length() == 0 ? "" : ", ").append(p + " from " + from));
    return out.toString();
  }
}
