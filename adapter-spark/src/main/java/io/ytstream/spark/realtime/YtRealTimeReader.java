package io.ytstream.spark.realtime;

import io.ytstream.application.ReadRealTimePartition;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.config.UserInputErrors;
import io.ytstream.spark.types.ArrivalTime;
import io.ytstream.spark.types.QueueRowConverter;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.LongSupplier;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.streaming.PartitionOffset;
import org.apache.spark.sql.connector.read.streaming.SupportsRealTimeRead;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One real-time task: Spark's calls turned into {@link ReadRealTimePartition}, which reads the
 * queue partition from the batch's start in pulls of at most {@link #PULL_ROWS} rows and decides
 * what they mean (contiguity, trimmed rows, rows a predecessor left). This class keeps Spark's
 * deadline, waits with {@link IdleWait} when the partition has nothing new, converts rows, and
 * leaves the rows it pulled but could not hand out before the deadline in {@link CarriedRows} for
 * the next batch's task of the same partition.
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
  private final PartitionId partition;
  private final QueueRowConverter converter;
  private final LongSupplier clockMs;
  private final IdleWait idle = new IdleWait();
  private final ReadRealTimePartition read;

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
    this.partition = partition;
    this.converter = converter;
    this.clockMs = clockMs;
    List<QueueRow> carried = CarriedRows.take(readId, partition, clockMs.getAsLong());
    this.read =
        new ReadRealTimePartition(
            (c, p, offset, maxRows) -> {
              try {
                // Text stays UTF-8 bytes: the converter wraps them as UTF8Strings.
                return cluster.queueReader().pullKeepingTextBytes(c, p, offset, maxRows);
              } catch (RuntimeException e) {
                throw UserInputErrors.pullFailed(p.queue().path(), c.path(), e);
              }
            },
            consumer,
            partition,
            start,
            carried,
            PULL_ROWS,
            failOnDataLoss ? DataLossPolicy.FAIL : DataLossPolicy.SKIP_AND_REPORT,
            loss -> LOG.warn("skipping trimmed rows (fail_on_data_loss=false): {}", loss));
    if (read.hasBuffered()) {
      LOG.debug(
          "{} starts at {} with {} rows its predecessor pulled", partition, start, carried.size());
    }
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
    if (!read.hasBuffered()) {
      read.pull();
    }
    QueueRow row = read.poll();
    if (row == null) {
      return false;
    }
    emit(row);
    return true;
  }

  private RecordStatus nextUntil(long deadlineMs) throws InterruptedIOException {
    while (true) {
      QueueRow row = read.poll();
      if (row != null) {
        return emit(row);
      }
      long now = clockMs.getAsLong();
      if (now >= deadlineMs) {
        return RecordStatus.newStatusWithoutArrivalTime(false);
      }
      if (read.pull() > 0) {
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
    current = converter.convert(partition, row);
    OptionalLong arrival = ArrivalTime.millis(row.timestamp(), clockMs.getAsLong());
    return arrival.isPresent()
        ? RecordStatus.newStatusWithArrivalTimeMs(arrival.getAsLong())
        : RecordStatus.newStatusWithoutArrivalTime(true);
  }

  @Override
  public PartitionOffset getOffset() {
    return new YtPartitionOffset(partition, read.next());
  }

  @Override
  public InternalRow get() {
    return current;
  }

  @Override
  public void close() {
    CarriedRows.keep(readId, partition, read.unread(), clockMs.getAsLong());
    cluster.close();
  }
}
