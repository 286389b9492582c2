package io.ytstream.benchmarks.latency;

import java.io.InterruptedIOException;
import java.util.concurrent.locks.LockSupport;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.streaming.PartitionOffset;
import org.apache.spark.sql.connector.read.streaming.SupportsRealTimeRead;

/**
 * One real-time task of {@link PacedSource}: parks until its next row is due (or Spark's deadline
 * comes first), then hands the row out with {@code sent_us} set to its due time. Both Spark
 * signatures of {@code nextWithTimeout} are here without {@code @Override}, as in ytstream's own
 * reader, so the limit runs on Spark 4.1.x and 4.2.x alike.
 */
final class PacedReader implements SupportsRealTimeRead<InternalRow> {

  private final PacedPlan plan;
  private final int partition;
  private final InternalRow[] ring;
  private long next;
  private InternalRow current;

  PacedReader(PacedStream.PacedTask task) {
    this.plan = task.plan();
    this.partition = task.partition();
    this.ring = PacedRows.partition(plan.name(), partition);
    this.next = task.start();
  }

  /** Spark 4.1.x: wait at most {@code timeoutMs} from now. */
  @SuppressWarnings("MissingOverride")
  public RecordStatus nextWithTimeout(Long timeoutMs) throws InterruptedIOException {
    return nextUntil(LatencyClock.nowMicros() + timeoutMs * 1000);
  }

  /** Spark 4.2.x: wait until {@code startTimeMs + timeoutMs} (wall clock). */
  @SuppressWarnings("MissingOverride")
  public RecordStatus nextWithTimeout(Long startTimeMs, Long timeoutMs)
      throws InterruptedIOException {
    long deadlineMs = startTimeMs + timeoutMs;
    long remainingMicros = (deadlineMs - System.currentTimeMillis()) * 1000;
    return nextUntil(LatencyClock.nowMicros() + remainingMicros);
  }

  private RecordStatus nextUntil(long deadlineMicros) throws InterruptedIOException {
    long due = next < plan.rowsPerPartition() ? plan.dueMicros(partition, next) : Long.MAX_VALUE;
    while (true) {
      long now = LatencyClock.nowMicros();
      if (due <= now) {
        handOut(due);
        return RecordStatus.newStatusWithoutArrivalTime(true);
      }
      if (now >= deadlineMicros) {
        return RecordStatus.newStatusWithoutArrivalTime(false);
      }
      LockSupport.parkNanos((Math.min(due, deadlineMicros) - now) * 1000);
      if (Thread.interrupted()) {
        throw new InterruptedIOException("paced read of partition " + partition + " interrupted");
      }
    }
  }

  @Override
  public boolean next() {
    if (next < plan.rowsPerPartition()
        && plan.dueMicros(partition, next) <= LatencyClock.nowMicros()) {
      handOut(plan.dueMicros(partition, next));
      return true;
    }
    return false;
  }

  /** Makes row {@code next} (due at {@code due}) the current one, in the ring's next slot. */
  private void handOut(long due) {
    InternalRow row = ring[(int) (next % ring.length)];
    row.setLong(0, next * plan.partitions() + partition);
    row.setLong(1, due);
    if (row.numFields() > 2) {
      row.setLong(2, partition);
      row.setLong(3, next);
    }
    next++;
    current = row;
  }

  @Override
  public PartitionOffset getOffset() {
    return new PacedStream.PacedPartitionOffset(partition, next);
  }

  @Override
  public InternalRow get() {
    return current;
  }

  @Override
  public void close() {}
}
