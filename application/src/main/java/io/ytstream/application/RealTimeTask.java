package io.ytstream.application;

import io.ytstream.application.realtime.IdleWait;
import io.ytstream.application.realtime.RowsCarriedToNextTask;
import io.ytstream.core.model.PartitionId;
import io.ytstream.ports.QueueRow;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One real-time task over its queue partitions (one, or {@code real_time_partitions_per_task}),
 * each read by a {@link ReadRealTimePartition} from the batch's start, the engine asking for the
 * next row until its deadline ({@link #next}).
 *
 * <p>The partitions share the task's thread without one holding the others back: a pull returns at
 * once with what is there (nothing when nothing is), so the task makes at most one pull at a time,
 * of the next partition in turn whose rows are all handed out and whose wait is over, then hands
 * out one row, the partitions taking turns row by row. A partition that pulled rows may pull again
 * as soon as they are handed out; one whose pull was empty waits as {@link IdleWait} says before
 * its next pull, so a quiet partition costs one short pull every few milliseconds on the way of a
 * busy one. When no partition has rows or is due, the task waits until the first is due (no spin),
 * never past the deadline.
 *
 * <p>Rows a predecessor pulled and could not hand out come from {@link RowsCarriedToNextTask} when
 * the task opens; at {@link #close} the rows this task pulled and did not hand out go there for the
 * next batch's task. Time is the caller's ({@link TimeSource}): the engine's clock, or a simulated
 * one.
 */
@DrivingUseCase
public final class RealTimeTask {

  /** The task's time: now, and waiting. */
  public interface TimeSource {
    /** Wall-clock milliseconds (deadlines, carried rows' age). */
    long nowMillis();

    /** A monotonic nanosecond clock (the partitions' waits). */
    long nowNanos();

    /** Waits {@code nanos} (or less, when woken). */
    void park(long nanos);
  }

  /** Opens the read of one partition of the task, given the rows carried for it. */
  @FunctionalInterface
  public interface PartitionReads {
    ReadRealTimePartition open(PartitionId partition, long start, List<QueueRow> carried);
  }

  /** A row handed out, with its partition. */
  public record Handed(PartitionId partition, QueueRow row) {}

  /** One partition of the task: its pull loop, its wait, when it may pull next. */
  private static final class Source {
    final PartitionId partition;
    final ReadRealTimePartition read;
    final int carried;
    final IdleWait idle = new IdleWait();
    long dueNanos;
    long pulls;

    Source(PartitionId partition, ReadRealTimePartition read, int carried, long nowNanos) {
      this.partition = partition;
      this.read = read;
      this.carried = carried;
      this.dueNanos = nowNanos;
    }
  }

  private final String readId;
  private final RowsCarriedToNextTask carried;
  private final TimeSource time;
  private final List<Source> sources = new ArrayList<>();
  private int nextPull;
  private int nextEmit;

  /**
   * Opens the task: each partition's read, from its start or with the rows a predecessor left.
   *
   * @param readId the query run's read, whose carried rows this task takes and leaves
   * @param starts the task's partitions, each with its start offset
   */
  public RealTimeTask(
      String readId,
      SortedMap<PartitionId, Long> starts,
      RowsCarriedToNextTask carried,
      PartitionReads reads,
      TimeSource time) {
    if (starts.isEmpty()) {
      throw new IllegalArgumentException("a real-time task reads at least one partition");
    }
    this.readId = Objects.requireNonNull(readId, "readId");
    this.carried = Objects.requireNonNull(carried, "carried");
    this.time = Objects.requireNonNull(time, "time");
    long nowMs = time.nowMillis();
    long nowNanos = time.nowNanos();
    for (Map.Entry<PartitionId, Long> e : starts.entrySet()) {
      List<QueueRow> rows = carried.take(readId, e.getKey(), nowMs);
      ReadRealTimePartition read = reads.open(e.getKey(), e.getValue(), rows);
      sources.add(new Source(e.getKey(), read, read.hasBuffered() ? rows.size() : 0, nowNanos));
    }
  }

  /**
   * The next row, pulling and waiting as needed until {@code deadlineMs} (on {@link
   * TimeSource#nowMillis}); empty at the deadline.
   *
   * @throws InterruptedIOException when the thread is interrupted while nothing is due
   */
  public Optional<Handed> next(long deadlineMs) throws InterruptedIOException {
    while (true) {
      boolean pulled = false;
      long nowNanos = time.nowNanos();
      if (time.nowMillis() < deadlineMs) {
        Source due = due(nowNanos);
        if (due != null) {
          pull(due, nowNanos);
          pulled = true;
        }
      }
      Source buffered = buffered();
      if (buffered != null) {
        return Optional.of(new Handed(buffered.partition, buffered.read.poll()));
      }
      long nowMs = time.nowMillis();
      if (nowMs >= deadlineMs) {
        return Optional.empty();
      }
      if (pulled) {
        // Another partition may be due as well: try it before waiting.
        continue;
      }
      if (Thread.currentThread().isInterrupted()) {
        throw new InterruptedIOException("real-time read of " + partitions() + " was interrupted");
      }
      long wait = IdleWait.bounded(firstDueNanos() - nowNanos, nowMs, deadlineMs);
      if (wait > 0) {
        time.park(wait);
      }
    }
  }

  /**
   * The next row if one is there now, after at most one pull of the next partition in turn; empty
   * means nothing right now, not the end.
   */
  public Optional<Handed> nextNow() {
    Source buffered = buffered();
    if (buffered == null) {
      Source s = sources.get(nextPull);
      nextPull = (nextPull + 1) % sources.size();
      pull(s, time.nowNanos());
      buffered = buffered();
    }
    return buffered == null
        ? Optional.empty()
        : Optional.of(new Handed(buffered.partition, buffered.read.poll()));
  }

  /** Every partition of the task, read or not: the next row index it would hand out. */
  public SortedMap<PartitionId, Long> offsets() {
    TreeMap<PartitionId, Long> next = new TreeMap<>();
    sources.forEach(s -> next.put(s.partition, s.read.next()));
    return next;
  }

  /** The task ends: the rows it pulled and did not hand out are kept for the next batch's task. */
  public void close() {
    long now = time.nowMillis();
    for (Source s : sources) {
      carried.keep(readId, s.partition, s.read.unread(), now);
    }
  }

  /** The rows each partition started with from its predecessor (0: it pulls from its start). */
  public SortedMap<PartitionId, Integer> carriedAtStart() {
    TreeMap<PartitionId, Integer> out = new TreeMap<>();
    sources.forEach(s -> out.put(s.partition, s.carried));
    return out;
  }

  /** Pulls made so far per partition. */
  public SortedMap<PartitionId, Long> pullCounts() {
    TreeMap<PartitionId, Long> out = new TreeMap<>();
    sources.forEach(s -> out.put(s.partition, s.pulls));
    return out;
  }

  /** The task's partitions, in order. */
  public List<PartitionId> partitions() {
    return sources.stream().map(s -> s.partition).toList();
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
      // Compared by difference: a nanosecond clock may wrap.
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
}
