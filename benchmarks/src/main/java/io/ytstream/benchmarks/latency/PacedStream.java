package io.ytstream.benchmarks.latency;

import java.util.Arrays;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream;
import org.apache.spark.sql.connector.read.streaming.Offset;
import org.apache.spark.sql.connector.read.streaming.PartitionOffset;
import org.apache.spark.sql.connector.read.streaming.ReadLimit;
import org.apache.spark.sql.connector.read.streaming.SupportsAdmissionControl;
import org.apache.spark.sql.connector.read.streaming.SupportsRealTimeMode;

/**
 * The stream of {@link PacedSource}, for Real-time Mode only: one open-ended task per partition
 * from the batch's start; the offset is how many rows of each partition were handed out.
 */
final class PacedStream
    implements MicroBatchStream, SupportsAdmissionControl, SupportsRealTimeMode {

  private final PacedPlan plan;

  PacedStream(PacedPlan plan) {
    this.plan = plan;
  }

  @Override
  public Offset initialOffset() {
    return new PacedOffset(new long[plan.partitions()]);
  }

  @Override
  public Offset latestOffset() {
    throw new UnsupportedOperationException("Spark calls latestOffset(start, limit)");
  }

  /**
   * Real-time batches end where the tasks stopped ({@link #mergeOffsets}); nothing to plan here.
   */
  @Override
  public Offset latestOffset(Offset start, ReadLimit limit) {
    return start;
  }

  @Override
  public ReadLimit getDefaultReadLimit() {
    return ReadLimit.allAvailable();
  }

  @Override
  public InputPartition[] planInputPartitions(Offset start, Offset end) {
    throw new UnsupportedOperationException("the paced source runs in Real-time Mode only");
  }

  @Override
  public InputPartition[] planInputPartitions(Offset start) {
    long[] next = ((PacedOffset) start).next;
    InputPartition[] tasks = new InputPartition[plan.partitions()];
    for (int p = 0; p < tasks.length; p++) {
      tasks[p] = new PacedTask(plan, p, next[p]);
    }
    return tasks;
  }

  @Override
  public Offset mergeOffsets(PartitionOffset[] offsets) {
    long[] next = new long[plan.partitions()];
    for (PartitionOffset o : offsets) {
      PacedPartitionOffset p = (PacedPartitionOffset) o;
      next[p.partition()] = Math.max(next[p.partition()], p.next());
    }
    return new PacedOffset(next);
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return new Factory();
  }

  @Override
  public Offset deserializeOffset(String json) {
    return new PacedOffset(
        Arrays.stream(json.trim().split(",")).mapToLong(Long::parseLong).toArray());
  }

  @Override
  public void commit(Offset end) {}

  @Override
  public void stop() {}

  /** Rows handed out per partition, as {@code "n0,n1,..."}. */
  static final class PacedOffset extends Offset {
    final long[] next;

    PacedOffset(long[] next) {
      this.next = next;
    }

    @Override
    public String json() {
      StringBuilder s = new StringBuilder();
      for (long n : next) {
        s.append(s.length() == 0 ? "" : ",").append(n);
      }
      return s.toString();
    }
  }

  record PacedTask(PacedPlan plan, int partition, long start) implements InputPartition {}

  record PacedPartitionOffset(int partition, long next) implements PartitionOffset {}

  private static final class Factory implements PartitionReaderFactory {
    private static final long serialVersionUID = 1L;

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
      return new PacedReader((PacedTask) partition);
    }
  }
}
