package io.ytstream.application.realtime;

/**
 * How long a real-time reader waits before it pulls a partition again that had no new rows: a short
 * pause that doubles on every empty pull, from {@link #FIRST_NANOS} up to {@link #MAX_NANOS}, and
 * starts short again as soon as rows come (one per partition of the task). Short first pauses keep
 * latency low right after a burst; the cap keeps an idle partition at a few hundred pulls per
 * second instead of a busy spin.
 *
 * <p>While rows came less than {@link #ACTIVE_FOR_NANOS} ago a pause is at most {@link
 * #ACTIVE_MAX_NANOS}: a partition fed every millisecond or two would otherwise have doubled to
 * pauses of 0.8–1.6 ms by the time its next rows land, and they would wait for the pull after that
 * (half a pause on average, on every row's latency). Such a partition pulls about as often as
 * before (it was pulling through its short pauses anyway); one that goes quiet backs off to {@link
 * #MAX_NANOS} as before once the window has passed.
 *
 * <p>Near the batch's deadline a pause takes at most half the time left (but not under {@link
 * #FIRST_NANOS}): rows that arrive during the last pause before the deadline would otherwise wait
 * for the next batch's task, a whole batch boundary (tens of milliseconds) later, where a bare
 * source hands them out on time. The approach costs a few more pulls per batch.
 */
public final class IdleWait {

  public static final long FIRST_NANOS = 100_000L;
  public static final long MAX_NANOS = 4_000_000L;

  public static final long ACTIVE_MAX_NANOS = 500_000L;
  public static final long ACTIVE_FOR_NANOS = 50_000_000L;

  private long next = FIRST_NANOS;
  private boolean rowsSeen;
  private long rowsNanos;

  /** Rows came: the next wait starts short again. */
  public void reset() {
    next = FIRST_NANOS;
  }

  /** Rows came at {@code nowNanos} (a monotonic nanosecond clock): as {@link #reset}, and kept. */
  public void rowsCame(long nowNanos) {
    reset();
    rowsSeen = true;
    rowsNanos = nowNanos;
  }

  /**
   * An empty pull at {@code nowNanos}: as {@link #backOff()}, but at most {@link #ACTIVE_MAX_NANOS}
   * while rows came within {@link #ACTIVE_FOR_NANOS}.
   */
  public long backOff(long nowNanos) {
    long wait = backOff();
    // Compared by difference: System.nanoTime may wrap.
    return rowsSeen && nowNanos - rowsNanos < ACTIVE_FOR_NANOS
        ? Math.min(wait, ACTIVE_MAX_NANOS)
        : wait;
  }

  /** The wait after the next empty pull, in nanoseconds. */
  public long nextNanos() {
    return next;
  }

  /** An empty pull: returns the wait before the next one, and doubles the wait after it. */
  public long backOff() {
    long wait = next;
    next = Math.min(MAX_NANOS, next * 2);
    return wait;
  }

  /**
   * A wait of {@code nanos} at {@code nowMs}, near the deadline: at most half the time left before
   * {@code deadlineMs} but not under {@link #FIRST_NANOS}, and never past the deadline.
   */
  public static long bounded(long nanos, long nowMs, long deadlineMs) {
    long left = Math.max(0, (deadlineMs - nowMs) * 1_000_000L);
    return Math.min(left, Math.min(nanos, Math.max(FIRST_NANOS, left / 2)));
  }
}
