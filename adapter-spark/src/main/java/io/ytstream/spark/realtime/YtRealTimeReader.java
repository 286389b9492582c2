package io.ytstream.spark.realtime;

import io.ytstream.application.Interruptions;
import io.ytstream.application.ReadRealTimePartition;
import io.ytstream.application.RealTimeTask;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.config.UserInputErrors;
import io.ytstream.spark.types.ArrivalTime;
import io.ytstream.spark.types.QueueRowConverter;
import java.io.InterruptedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.streaming.PartitionOffset;
import org.apache.spark.sql.connector.read.streaming.SupportsRealTimeRead;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One real-time task: Spark's calls turned into calls of the application's {@link RealTimeTask},
 * which reads each queue partition of the task with a {@link ReadRealTimePartition} from the
 * batch's start in pulls of at most {@link #PULL_ROWS} rows, multiplexes the partitions (one pull
 * at a time, idle partitions waiting as {@code IdleWait} says, rows handed out by turns) up to
 * Spark's deadline, and leaves the rows it could not hand out in {@link CarriedRows} for the next
 * batch's task of the same partition. This class gives it the clock, converts rows, and tells a
 * stopping query's kill from a failure.
 *
 * <p>Both Spark signatures of {@code nextWithTimeout} are here, neither with {@code @Override}, so
 * one jar runs on Spark 4.1.x ({@code nextWithTimeout(Long timeoutMs)}) and 4.2.x ({@code
 * nextWithTimeout(Long startTimeMs, Long timeoutMs)}); each JVM links the one its interface
 * declares.
 *
 * <p>A stopping query cancels its real-time tasks, and Spark kills a task by marking its {@link
 * TaskContext} and interrupting its thread, which is most of the time inside a pull or a wait here.
 * That interruption ends the task's read like its deadline does (no more rows, the offset so far),
 * logged at DEBUG: thrown out of the task, Spark would log it as an ERROR ("Aborting task") with
 * our stack trace at every normal stop. The thread's interrupt flag is cleared then, so that the
 * writer's close hands the rows it already took to the cluster instead of failing on the flag;
 * Spark still ends the task as killed (it reads the reason from the task's context). An
 * interruption of a thread whose task was not killed is still thrown.
 */
final class YtRealTimeReader implements SupportsRealTimeRead<InternalRow> {

  private static final Logger LOG = LoggerFactory.getLogger(YtRealTimeReader.class);
  static final int PULL_ROWS = 1_000;

  private final YtCluster cluster;
  private final QueueRowConverter converter;
  private final LongSupplier clockMs;
  private final BooleanSupplier taskKilled;
  private final RealTimeTask task;

  private InternalRow current;

  /** A task of one partition. */
  YtRealTimeReader(
      YtCluster cluster,
      String readId,
      ConsumerId consumer,
      PartitionId partition,
      long start,
      QueueRowConverter converter,
      boolean failOnDataLoss,
      LongSupplier clockMs) {
    this(
        cluster,
        readId,
        consumer,
        new TreeMap<>(Map.of(partition, start)),
        converter,
        failOnDataLoss,
        clockMs);
  }

  /**
   * @param starts the task's partitions, each with its start offset
   */
  YtRealTimeReader(
      YtCluster cluster,
      String readId,
      ConsumerId consumer,
      SortedMap<PartitionId, Long> starts,
      QueueRowConverter converter,
      boolean failOnDataLoss,
      LongSupplier clockMs) {
    this(
        cluster,
        readId,
        consumer,
        starts,
        converter,
        failOnDataLoss,
        clockMs,
        YtRealTimeReader::sparkKilledThisTask);
  }

  /**
   * @param taskKilled whether the task of the calling thread was killed (Spark's {@link
   *     TaskContext#isInterrupted()})
   */
  YtRealTimeReader(
      YtCluster cluster,
      String readId,
      ConsumerId consumer,
      SortedMap<PartitionId, Long> starts,
      QueueRowConverter converter,
      boolean failOnDataLoss,
      LongSupplier clockMs,
      BooleanSupplier taskKilled) {
    this.cluster = cluster;
    this.converter = converter;
    this.clockMs = clockMs;
    this.taskKilled = taskKilled;
    DataLossPolicy policy = failOnDataLoss ? DataLossPolicy.FAIL : DataLossPolicy.SKIP_AND_REPORT;
    this.task =
        new RealTimeTask(
            readId,
            starts,
            CarriedRows.store(),
            (partition, start, carried) ->
                new ReadRealTimePartition(
                    (c, p, offset, maxRows) -> {
                      try {
                        // Text stays UTF-8 bytes: the converter wraps them as UTF8Strings.
                        return cluster.queueReader().pullKeepingTextBytes(c, p, offset, maxRows);
                      } catch (RuntimeException ex) {
                        throw UserInputErrors.pullFailed(p.queue().path(), c.path(), ex);
                      }
                    },
                    consumer,
                    partition,
                    start,
                    carried,
                    PULL_ROWS,
                    policy,
                    loss -> LOG.warn("skipping trimmed rows (fail_on_data_loss=false): {}", loss)),
            new SystemTime(clockMs));
    task.carriedAtStart()
        .forEach(
            (partition, rows) -> {
              if (rows > 0) {
                LOG.debug("{} starts with {} rows its predecessor pulled", partition, rows);
              }
            });
  }

  /** Spark's clock for deadlines, the JVM's nanosecond clock and parking for waits. */
  private record SystemTime(LongSupplier clockMs) implements RealTimeTask.TimeSource {
    @Override
    public long nowMillis() {
      return clockMs.getAsLong();
    }

    @Override
    public long nowNanos() {
      return System.nanoTime();
    }

    @Override
    public void park(long nanos) {
      LockSupport.parkNanos(nanos);
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
   * now, after at most one pull; false means nothing right now, not the end of the partitions.
   */
  @Override
  public boolean next() {
    Optional<RealTimeTask.Handed> row = task.nextNow();
    row.ifPresent(this::emit);
    return row.isPresent();
  }

  private RecordStatus nextUntil(long deadlineMs) throws InterruptedIOException {
    try {
      Optional<RealTimeTask.Handed> row = task.next(deadlineMs);
      return row.isPresent() ? emit(row.get()) : RecordStatus.newStatusWithoutArrivalTime(false);
    } catch (InterruptedIOException | RuntimeException e) {
      if (!Interruptions.isInterruption(e) || !taskKilled.getAsBoolean()) {
        throw e;
      }
      // The query is stopping: a normal end of the task's read, not a failure.
      Thread.interrupted();
      LOG.debug(
          "real-time read of {} ends: its task was killed ({})", task.partitions(), e.toString());
      return RecordStatus.newStatusWithoutArrivalTime(false);
    }
  }

  private static boolean sparkKilledThisTask() {
    TaskContext task = TaskContext.get();
    return task != null && task.isInterrupted();
  }

  private RecordStatus emit(RealTimeTask.Handed handed) {
    QueueRow row = handed.row();
    current = converter.convert(handed.partition(), row);
    OptionalLong arrival = ArrivalTime.millis(row.timestamp(), clockMs.getAsLong());
    return arrival.isPresent()
        ? RecordStatus.newStatusWithArrivalTimeMs(arrival.getAsLong())
        : RecordStatus.newStatusWithoutArrivalTime(true);
  }

  /** Pulls made so far per partition, for tests. */
  Map<PartitionId, Long> pullCounts() {
    return task.pullCounts();
  }

  /** Every partition of the task, read or not: the next row index it would hand out. */
  @Override
  public PartitionOffset getOffset() {
    return new YtPartitionOffset(task.offsets());
  }

  @Override
  public InternalRow get() {
    return current;
  }

  @Override
  public void close() {
    try {
      task.close();
    } finally {
      cluster.close();
    }
  }
}
