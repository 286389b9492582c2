package io.ytstream.application.realtime;

import io.ytstream.application.DrivingUseCase;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.plan.QueueBounds;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Real-time Mode: the queue's bounds read ahead of the batch boundaries, every {@link #REFRESH_MS}
 * on a thread of the caller's, so that a boundary plans the next batch without a request in line.
 * The bounds a boundary uses are then up to a refresh old: a reshard is noticed up to a second
 * later, rows trimmed meanwhile are found by the task's first pull (reported as data loss), and the
 * rows behind in the metrics are counted against bounds newer than the batch's start. A read that
 * fails keeps the last bounds; once they are {@link #MAX_AGE_MS} old, {@link #fresh} is empty and
 * the boundary reads in line, which reports the error. The time is the caller's.
 *
 * <p>A queue partition's row indexes only grow: its end and first readable row never go back, and
 * partitions are only added. A read in which one went back, or a partition is missing, means the
 * queue was re-created (or cut): from then on nothing is offered, so every boundary reads in line
 * and refuses the positions the queue no longer fits. Without this, a boundary raises bounds read
 * ahead to where its tasks stopped ({@code QueueBounds.atLeast}), which hides the re-created queue
 * for good.
 */
@DrivingUseCase
public final class BoundsReadAhead {

  public static final long REFRESH_MS = 1_000;
  public static final long MAX_AGE_MS = 5_000;

  private record Read(QueueBounds bounds, long atMs) {}

  private final Supplier<QueueBounds> read;
  private volatile Read last;
  private volatile boolean wentBack;

  public BoundsReadAhead(Supplier<QueueBounds> read) {
    this.read = read;
  }

  /**
   * Reads the bounds now (the refreshing thread's call). A failure keeps the last bounds and is
   * returned, for the caller to log: the boundary that finds them too old reads in line and fails
   * with it.
   */
  public Optional<RuntimeException> refresh(long nowMs) {
    try {
      QueueBounds bounds = read.get();
      Read before = last;
      if (before != null && wentBack(before.bounds(), bounds)) {
        wentBack = true;
      }
      last = new Read(bounds, nowMs);
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.of(e);
    }
  }

  /**
   * The last bounds read, unless they are {@link #MAX_AGE_MS} old (or none was read, or a read
   * found the queue gone back).
   */
  public Optional<QueueBounds> fresh(long nowMs) {
    Read r = last;
    if (r == null || wentBack || nowMs - r.atMs() >= MAX_AGE_MS) {
      return Optional.empty();
    }
    return Optional.of(r.bounds());
  }

  private static boolean wentBack(QueueBounds before, QueueBounds now) {
    for (int i = 0; i < before.size(); i++) {
      PartitionBounds was = before.boundsAt(i);
      PartitionBounds is = now.get(before.partitionAt(i));
      if (is == null
          || is.totalRowCount() < was.totalRowCount()
          || is.trimmedRowCount() < was.trimmedRowCount()) {
        return true;
      }
    }
    return false;
  }
}
