package io.ytstream.application;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.plan.DataLoss;
import io.ytstream.core.plan.DataLossException;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueRow;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;

/**
 * The pull loop of one real-time task: its queue partition from the batch's start, with no end, in
 * pulls of at most {@code pullRows} rows (the only rows it holds). The caller decides when to pull
 * and when to stop (Spark's deadline); this class decides what a pull's rows mean:
 *
 * <ul>
 *   <li>A pull that starts past the next row index means rows were trimmed before being read: data
 *       loss. It fails the read under {@link DataLossPolicy#FAIL}; otherwise the rows are skipped
 *       and reported to {@link LostRows}.
 *   <li>An empty pull is no news: the partition has nothing past the next index yet.
 *   <li>Rows handed out must be contiguous; a gap within a pull is an error.
 *   <li>Rows a predecessor pulled and could not hand out ({@link #unread}) serve a task only when
 *       they begin exactly at its start: a queue's rows never change at an index, so they are the
 *       rows a pull would return (even if trimmed since: they were read before the trim).
 * </ul>
 */
@DrivingUseCase
public final class ReadRealTimePartition {

  private final QueuePartitionReader reader;
  private final ConsumerId consumer;
  private final PartitionId partition;
  private final int pullRows;
  private final DataLossPolicy policy;
  private final LostRows lostRows;
  private final ArrayDeque<QueueRow> buffer = new ArrayDeque<>();

  private long next;

  /**
   * @param start the batch's start offset of {@code partition}
   * @param carried rows a predecessor left, used only when they begin at {@code start}
   */
  public ReadRealTimePartition(
      QueuePartitionReader reader,
      ConsumerId consumer,
      PartitionId partition,
      long start,
      List<QueueRow> carried,
      int pullRows,
      DataLossPolicy policy,
      LostRows lostRows) {
    if (pullRows < 1) {
      throw new IllegalArgumentException("pullRows must be >= 1, got " + pullRows);
    }
    this.reader = Objects.requireNonNull(reader, "reader");
    this.consumer = Objects.requireNonNull(consumer, "consumer");
    this.partition = Objects.requireNonNull(partition, "partition");
    this.next = start;
    this.pullRows = pullRows;
    this.policy = Objects.requireNonNull(policy, "policy");
    this.lostRows = Objects.requireNonNull(lostRows, "lostRows");
    if (startsAt(carried, start)) {
      buffer.addAll(carried);
    }
  }

  /** Whether {@code rows} can serve a task starting at {@code start}. */
  public static boolean startsAt(List<QueueRow> rows, long start) {
    return !rows.isEmpty() && rows.get(0).rowIndex() == start;
  }

  /** True when rows pulled earlier are waiting to be handed out. */
  public boolean hasBuffered() {
    return !buffer.isEmpty();
  }

  /**
   * The next row pulled earlier, or null when none is waiting (then {@link #pull}).
   *
   * @throws IllegalStateException when its index is not the next one
   */
  public QueueRow poll() {
    QueueRow row = buffer.poll();
    if (row == null) {
      return null;
    }
    if (row.rowIndex() != next) {
      throw new IllegalStateException(
          "rows of "
              + partition
              + " are not contiguous: expected $row_index "
              + next
              + ", got "
              + row.rowIndex());
    }
    next++;
    return row;
  }

  /**
   * Pulls the rows from the next index into the buffer, once every row pulled before is handed out,
   * and returns how many came (0: nothing new).
   *
   * @throws DataLossException when rows were trimmed before being read and the policy is to fail
   * @throws IllegalStateException while rows pulled before are still waiting
   */
  public int pull() {
    if (!buffer.isEmpty()) {
      throw new IllegalStateException(
          buffer.size() + " rows of " + partition + " are still to be handed out before a pull");
    }
    List<QueueRow> rows = reader.pull(consumer, partition, next, pullRows);
    if (rows.isEmpty()) {
      return 0;
    }
    long first = rows.get(0).rowIndex();
    if (first > next) {
      DataLoss loss = new DataLoss(partition, next, first);
      if (policy == DataLossPolicy.FAIL) {
        throw new DataLossException(List.of(loss));
      }
      lostRows.skipped(loss);
      next = first;
    }
    buffer.addAll(rows);
    return rows.size();
  }

  /** The next row index this task would hand out: where it stands when the batch ends. */
  public long next() {
    return next;
  }

  /** The rows pulled but not handed out, the first at {@link #next} (for the next batch's task). */
  public List<QueueRow> unread() {
    return List.copyOf(buffer);
  }
}
