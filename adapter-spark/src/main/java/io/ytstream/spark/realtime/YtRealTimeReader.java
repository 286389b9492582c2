package io.ytstream.spark.realtime;

import io.ytstream.application.Interruptions;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * One real-time task: Spark's calls turned into one {@link ReadRealTimePartition} per queue
 * partition of the task, each reading its partition from the batch's start in pulls of at most
 * {@link #PULL_ROWS} rows and deciding what they mean (contiguity, trimmed rows, rows a predecessor
 * left). This class keeps Spark's deadline, multiplexes the task's partitions, converts rows, and
 * leaves the rows it pulled but could not hand out before the deadline in {@link CarriedRows} for
 * the next batch's task of the same partition.
 *
 * <p>Several partitions per task ({@code real_time_partitions_per_task}) share the task's thread
 * without one holding the others back: a {@code pull_queue} returns at once with what is there (an
 * empty answer when nothing is), so each step makes at most one pull, of the next partition in turn
 * whose buffer is empty and whose wait is over, then hands out one row, the partitions taking turns
 * row by row. A partition that pulled rows may pull again as soon as they are handed out; one whose
 * pull was empty waits as with {@link IdleWait} (0.1 ms doubling up to 4 ms, at most 0.5 ms within
 * 50 ms of its last rows) before its next pull, so a quiet partition costs one short pull every few
 * milliseconds on the way of a busy one. When no partition has rows or is due, the task parks until
 * the first is due (no spin).
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

  /** One partition of the task: its pull loop, its wait, when it may pull next. */
  private static final class Source {
    final PartitionId partition;
    final ReadRealTimePartition read;
    final IdleWait idle = new IdleWait();
    long dueNanos;
    long pulls;

    Source(PartitionId partition, ReadRealTimePartition read, long nowNanos) {
      this.partition = partition;
      this.read = read;
      this.dueNanos = nowNanos;
    }
  }

  private final YtCluster cluster;
  private final String readId;
  private final QueueRowConverter converter;
  private final LongSupplier clockMs;
  private final BooleanSupplier taskKilled;
  private final List<Source> sources = new ArrayList<>();

  private int nextPull;
  private int nextEmit;
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
    if (starts.isEmpty()) {
      throw new IllegalArgumentException("a real-time task reads at least one partition");
    }
    this.cluster = cluster;
    this.readId = readId;
    this.converter = converter;
    this.clockMs = clockMs;
    this.taskKilled = taskKilled;
    long now = System.nanoTime();
    for (Map.Entry<PartitionId, Long> e : starts.entrySet()) {
      PartitionId partition = e.getKey();
      long start = e.getValue();
      List<QueueRow> carried = CarriedRows.take(readId, partition, clockMs.getAsLong());
      ReadRealTimePartition read =
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
              failOnDataLoss ? DataLossPolicy.FAIL : DataLossPolicy.SKIP_AND_REPORT,
              loss -> LOG.warn("skipping trimmed rows (fail_on_data_loss=false): {}", loss));
      if (read.hasBuffered()) {
        LOG.debug(
            "{} starts at {} with {} rows its predecessor pulled",
            partition,
            start,
            carried.size());
      }
      sources.add(new Source(partition, read, now));
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
    Source buffered = buffered();
    if (buffered == null) {
      Source s = sources.get(nextPull);
      nextPull = (nextPull + 1) % sources.size();
      pull(s, System.nanoTime());
      buffered = buffered();
    }
    if (buffered == null) {
      return false;
    }
    emit(buffered);
    return true;
  }

  private RecordStatus nextUntil(long deadlineMs) throws InterruptedIOException {
    try {
      return readUntil(deadlineMs);
    } catch (InterruptedIOException | RuntimeException e) {
      if (!Interruptions.isInterruption(e) || !taskKilled.getAsBoolean()) {
        throw e;
      }
      // The query is stopping: a normal end of the task's read, not a failure.
      Thread.interrupted();
      LOG.debug("real-time read of {} ends: its task was killed ({})", partitions(), e.toString());
      return RecordStatus.newStatusWithoutArrivalTime(false);
    }
  }

  private static boolean sparkKilledThisTask() {
    TaskContext task = TaskContext.get();
    return task != null && task.isInterrupted();
  }

  private RecordStatus readUntil(long deadlineMs) throws InterruptedIOException {
    while (true) {
      boolean pulled = false;
      long nowNanos = System.nanoTime();
      if (clockMs.getAsLong() < deadlineMs) {
        Source due = due(nowNanos);
        if (due != null) {
          pull(due, nowNanos);
          pulled = true;
        }
      }
      Source buffered = buffered();
      if (buffered != null) {
        return emit(buffered);
      }
      long now = clockMs.getAsLong();
      if (now >= deadlineMs) {
        return RecordStatus.newStatusWithoutArrivalTime(false);
      }
      if (pulled) {
        // Another partition may be due as well: try it before waiting.
        continue;
      }
      if (Thread.currentThread().isInterrupted()) {
        throw new InterruptedIOException("real-time read of " + partitions() + " was interrupted");
      }
      long wait = IdleWait.bounded(firstDueNanos() - nowNanos, now, deadlineMs);
      if (wait > 0) {
        LockSupport.parkNanos(wait);
      }
    }
  }

  /** The next partition in turn with nothing buffered whose wait is over, or null. */
  private Source due(long nowNanos) {
    for (int i = 0; i < sources.size(); i++) {
      Source s = sources.get((nextPull + i) % sources.size());
      if (!s.read.hasBuffered() && s.dueNanos - nowNanos <= 0) {
        nextPull = (nextPull + i + 1) % sources.size();
        return s;
      }
    }
    return null;
  }

  private long firstDueNanos() {
    long first = sources.get(0).dueNanos;
    for (Source s : sources) {
      // Compared by difference: System.nanoTime may wrap.
      if (s.dueNanos - first < 0) {
        first = s.dueNanos;
      }
    }
    return first;
  }

  private void pull(Source s, long nowNanos) {
    s.pulls++;
    if (s.read.pull() > 0) {
      s.idle.rowsCame(nowNanos);
      s.dueNanos = nowNanos;
    } else {
      s.dueNanos = nowNanos + s.idle.backOff(nowNanos);
    }
  }

  /** The next partition in turn with rows waiting, or null. */
  private Source buffered() {
    for (int i = 0; i < sources.size(); i++) {
      Source s = sources.get((nextEmit + i) % sources.size());
      if (s.read.hasBuffered()) {
        nextEmit = (nextEmit + i + 1) % sources.size();
        return s;
      }
    }
    return null;
  }

  private RecordStatus emit(Source s) {
    QueueRow row = s.read.poll();
    current = converter.convert(s.partition, row);
    OptionalLong arrival = ArrivalTime.millis(row.timestamp(), clockMs.getAsLong());
    return arrival.isPresent()
        ? RecordStatus.newStatusWithArrivalTimeMs(arrival.getAsLong())
        : RecordStatus.newStatusWithoutArrivalTime(true);
  }

  private List<PartitionId> partitions() {
    return sources.stream().map(s -> s.partition).toList();
  }

  /** Pulls made so far per partition, for tests. */
  Map<PartitionId, Long> pullCounts() {
    TreeMap<PartitionId, Long> out = new TreeMap<>();
    sources.forEach(s -> out.put(s.partition, s.pulls));
    return out;
  }

  /** Every partition of the task, read or not: the next row index it would hand out. */
  @Override
  public PartitionOffset getOffset() {
    TreeMap<PartitionId, Long> next = new TreeMap<>();
    sources.forEach(s -> next.put(s.partition, s.read.next()));
    return new YtPartitionOffset(next);
  }

  @Override
  public InternalRow get() {
    return current;
  }

  @Override
  public void close() {
    long now = clockMs.getAsLong();
    for (Source s : sources) {
      CarriedRows.keep(readId, s.partition, s.read.unread(), now);
    }
    cluster.close();
  }
}
