package io.ytstream.spark;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.spi.YtCluster;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One partition read on between two real-time batches, on a daemon thread of its own: from the
 * offset where the last task stopped, contiguous rows only, at most {@code maxRows}, for at most
 * {@code lingerMs}. It never decides anything about the rows: a gap (trimmed rows) or a failed pull
 * stops the pulling (the rows already read stay good), and the next task meets the same condition
 * itself and reports it as it always does. It owns its cluster handle and closes it when it ends.
 */
final class PartitionReadAhead implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(PartitionReadAhead.class);
  private static final int PULL_ROWS = YtRealTimeReader.PULL_ROWS;

  private final YtCluster cluster;
  private final ConsumerId consumer;
  private final PartitionId partition;
  private final long from;
  private final int maxRows;
  private final long deadlineMs;
  private final LongSupplier clockMs;
  private final Consumer<PartitionReadAhead> onEnd;
  private final List<QueueRow> rows;
  private final Thread thread;
  private volatile boolean stopped;
  private volatile int held;
  private long next;

  PartitionReadAhead(
      YtCluster cluster,
      ConsumerId consumer,
      PartitionId partition,
      long from,
      Collection<QueueRow> unread,
      int maxRows,
      long lingerMs,
      LongSupplier clockMs,
      Consumer<PartitionReadAhead> onEnd) {
    this.cluster = cluster;
    this.consumer = consumer;
    this.partition = partition;
    this.from = from;
    this.rows = new ArrayList<>(unread);
    this.next = from + unread.size();
    this.held = unread.size();
    this.maxRows = maxRows;
    this.clockMs = clockMs;
    this.deadlineMs = clockMs.getAsLong() + lingerMs;
    this.onEnd = onEnd;
    this.thread = new Thread(this, "ytstream-read-ahead " + partition);
    thread.setDaemon(true);
  }

  /** The offset of the first row held: a task starting anywhere else cannot use them. */
  long from() {
    return from;
  }

  void start() {
    thread.start();
  }

  @Override
  public void run() {
    IdleWait idle = new IdleWait();
    boolean pulling = true;
    try {
      while (!stopped) {
        long now = clockMs.getAsLong();
        if (now >= deadlineMs) {
          LOG.debug("read-ahead of {} ended unclaimed after its linger", partition);
          return;
        }
        if (!pulling || rows.size() >= maxRows) {
          // Full or stopped short: hold what was read until a task claims it or the linger ends.
          LockSupport.parkNanos(IdleWait.MAX_NANOS);
          continue;
        }
        pulling = pullOnce(idle, now);
      }
    } finally {
      onEnd.accept(this);
      cluster.close();
    }
  }

  /**
   * One pull into {@link #rows}; false when reading ahead must stop: a gap (trimmed rows) or a
   * failed pull, which the next task meets itself and reports as it always does.
   */
  private boolean pullOnce(IdleWait idle, long now) {
    List<QueueRow> got;
    try {
      got =
          cluster
              .queueReader()
              .pull(consumer, partition, next, Math.min(maxRows - rows.size(), PULL_ROWS));
    } catch (RuntimeException e) {
      LOG.debug("read-ahead of {} stopped pulling: {}", partition, e.toString());
      return false;
    }
    if (got.isEmpty()) {
      idle.pause(now, deadlineMs);
      return true;
    }
    if (got.get(0).rowIndex() != next) {
      LOG.debug("read-ahead of {} stopped at a gap after $row_index {}", partition, next - 1);
      return false;
    }
    rows.addAll(got);
    next = got.get(got.size() - 1).rowIndex() + 1;
    held = rows.size();
    idle.reset();
    return true;
  }

  /** How many rows are held now (for tests and logs). */
  int held() {
    return held;
  }

  /**
   * Stops reading (a pull under way completes) and returns the rows read, contiguous from {@link
   * #from}. Empty if the calling thread is interrupted while it waits.
   */
  List<QueueRow> finish() {
    stopped = true;
    LockSupport.unpark(thread);
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return List.of();
    }
    return rows;
  }

  /** Stops reading without waiting; the rows are dropped. */
  void discard() {
    stopped = true;
    LockSupport.unpark(thread);
  }
}
