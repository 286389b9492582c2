package io.ytstream.application.realtime;

import io.ytstream.application.DrivingUseCase;
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
 */
@DrivingUseCase
public final class BoundsReadAhead {

  public static final long REFRESH_MS = 1_000;
  public static final long MAX_AGE_MS = 5_000;

  private record Read(QueueBounds bounds, long atMs) {}

  private final Supplier<QueueBounds> read;
  private volatile Read last;

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
      last = new Read(read.get(), nowMs);
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.of(e);
    }
  }

  /** The last bounds read, unless they are {@link #MAX_AGE_MS} old (or none was read). */
  public Optional<QueueBounds> fresh(long nowMs) {
    Read r = last;
    if (r == null || nowMs - r.atMs() >= MAX_AGE_MS) {
      return Optional.empty();
    }
    return Optional.of(r.bounds());
  }
}
