package io.ytstream.spark.source;

import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * The ranges one task reads, in a form Java serialization ships to executors (a micro-batch's task
 * and a static read's).
 */
public final class YtInputPartition implements InputPartition {

  private static final long serialVersionUID = 1L;

  /** One range: queue key, partition index, [lower, upper). */
  static final class Range implements Serializable {
    private static final long serialVersionUID = 1L;
    final String queueKey;
    final int index;
    final long lower;
    final long upper;

    Range(OffsetRange r) {
      this.queueKey = r.partition().queue().key();
      this.index = r.partition().index();
      this.lower = r.lower();
      this.upper = r.upper();
    }

    OffsetRange toRange() {
      return new OffsetRange(new PartitionId(QueueId.parseKey(queueKey), index), lower, upper);
    }
  }

  private final ArrayList<Range> ranges = new ArrayList<>();

  public YtInputPartition(List<OffsetRange> ranges) {
    ranges.forEach(r -> this.ranges.add(new Range(r)));
  }

  public List<OffsetRange> ranges() {
    List<OffsetRange> out = new ArrayList<>();
    ranges.forEach(r -> out.add(r.toRange()));
    return out;
  }

  @Override
  public String toString() {
    return ranges().toString();
  }
}
