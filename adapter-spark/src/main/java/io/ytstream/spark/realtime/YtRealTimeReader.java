package io.ytstream.spark.realtime;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.plan.DataLoss;
import io.ytstream.core.plan.DataLossException;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.config.UserInputErrors;
import io.ytstream.spark.types.ArrivalTime;
import io.ytstream.spark.types.QueueRowConverter;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.LongSupplier;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.streaming.PartitionOffset;
import org.apache.spark.sql.connector.read.streaming.SupportsRealTimeRead;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One real-time task: reads its queue partition continuously from the batch's start offset until
 * Spark's deadline, in pulls of at most {@link #PULL_ROWS} rows (the only rows it holds), waiting
 * with {@link IdleWait} when the partition has nothing new. Row indexes are checked as in the
 * micro-batch reader: a gap at the start of a pull is trimmed data (data loss), any other gap an
 * error. Rows pulled but not handed out before the deadline are left in {@link CarriedRows} for the
 * next batch's task of the same partition.
 *
 * <p>Both Spark signatures of {@code nextWithTimeout} are here, neither with {@code @Override}, so
 * one jar runs on Spark 4.1.x ({@code nextWithTimeout(Long timeoutMs)}) and 4.2.x ({@code
 * nextWithTimeout(Long startTimeMs, Long timeoutMs)}); each JVM links the one its interface
 * declares.
 */
final class YtRealTimeReader implements SupportsRealTimeRead<InternalRow> {

  private static final Logger LOG = LoggerFactory.getLogger(YtRealTimeReader.class);
  static final int PULL_ROWS = 1_000;

  private final YtCluster cluster;
  private final String readId;
  private final ConsumerId consumer;
  private final PartitionId partition;
  private final QueueRowConverter converter;
  private final boolean failOnDataLoss;
  private final LongSupplier clockMs;
  private final IdleWait idle = new IdleWait();
  private final ArrayDeque<QueueRow> buffer = new ArrayDeque<>();

  private long next;
  private InternalRow current;

  YtRealTimeReader(
      YtCluster cluster,
      String readId,
      ConsumerId consumer,
      PartitionId partition,
      long start,
      QueueRowConverter converter,
      boolean failOnDataLoss,
      LongSupplier clockMs) {
    this.cluster = cluster;
    this.readId = readId;
    this.consumer = consumer;
    this.partition = partition;
    this.next = start;
    this.converter = converter;
    this.failOnDataLoss = failOnDataLoss;
    this.clockMs = clockMs;
    CarriedRows.take(readId, partition, start, clockMs.getAsLong())
        .ifPresent(
            rows -> {
              LOG.debug(
                  "{} starts at {} with {} rows its predecessor pulled",
                  partition,
                  start,
                  rows.size());
              buffer.addAll(rows);
            });
  }

  /** Spark 4.1.x: wait at most {@code timeoutMs} from now. */
  // No @Override on either signature: each overrides on one Spark version only.
  @SuppressWarnings("MissingOverride")
  public RecordStatus nextWithTimeout(Long timeoutMs) throws InterruptedIOException {
    long now = clockMs.getAsLong();
    return nextUntil(now + timeoutMs);
  }

  /** Spark 4.2.x: wait until {@code startTimeMs + timeoutMs}. */
  @SuppressWarnings("MissingOverride")
  public RecordStatus nextWithTimeout(Long startTimeMs, Long timeoutMs)
      throws InterruptedIOException {
    return nextUntil(startTimeMs + timeoutMs);
  }

  /**
   * As a plain reader (Spark's real-time wrapper never calls this): the next row if one is there
   * now, after at most one pull; false means nothing right now, not the end of the partition.
   */
  @Override
  public boolean next() {
    if (buffer.isEmpty()) {
      pull();
    }
    QueueRow row = buffer.poll();
    if (row == null) {
      return false;
    }
    emit(row);
    return true;
  }

  private RecordStatus nextUntil(long deadlineMs) throws InterruptedIOException {
    while (true) {
      QueueRow row = buffer.poll();
      if (row != null) {
        return emit(row);
      }
      long now = clockMs.getAsLong();
      if (now >= deadlineMs) {
        return RecordStatus.newStatusWithoutArrivalTime(false);
      }
      if (pull() > 0) {
        idle.reset();
        continue;
      }
      if (Thread.currentThread().isInterrupted()) {
        throw new InterruptedIOException("real-time read of " + partition + " was interrupted");
      }
      idle.pause(now, deadlineMs);
    }
  }

  private RecordStatus emit(QueueRow row) {
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
    current = converter.convert(partition, row);
    OptionalLong arrival = ArrivalTime.millis(row.timestamp(), clockMs.getAsLong());
    return arrival.isPresent()
        ? RecordStatus.newStatusWithArrivalTimeMs(arrival.getAsLong())
        : RecordStatus.newStatusWithoutArrivalTime(true);
  }

  /** Pulls the next chunk into the buffer; returns how many rows came. */
  private int pull() {
    List<QueueRow> rows;
    try {
      rows = cluster.queueReader().pull(consumer, partition, next, PULL_ROWS);
    } catch (RuntimeException e) {
      throw UserInputErrors.pullFailed(partition.queue().path(), consumer.path(), e);
    }
    if (rows.isEmpty()) {
      return 0;
    }
    long first = rows.get(0).rowIndex();
    if (first > next) {
      DataLoss loss = new DataLoss(partition, next, first);
      if (failOnDataLoss) {
        throw new DataLossException(List.of(loss));
      }
      LOG.warn("skipping trimmed rows (fail_on_data_loss=false): {}", loss);
      next = first;
    }
    buffer.addAll(rows);
    return rows.size();
  }

  @Override
  public PartitionOffset getOffset() {
    return new YtPartitionOffset(partition, next);
  }

  @Override
  public InternalRow get() {
    return current;
  }

  @Override
  public void close() {
    CarriedRows.keep(readId, partition, next, List.copyOf(buffer), clockMs.getAsLong());
    cluster.close();
  }
}
