package io.ytstream.inmemory;

import com.google.common.base.Preconditions;
import io.ytstream.ports.TimeSource;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves only when told to, so that transaction expiry, modification times and commit
 * timestamps are reproducible. It never goes backwards: commit timestamps derive from it and must
 * stay monotonic.
 */
public final class ManualClock implements TimeSource {

  /** 2023-11-14T22:13:20Z: a plausible wall time, so that times look real in logs. */
  public static final long DEFAULT_START_MILLIS = 1_700_000_000_000L;

  private final AtomicLong nowMillis;

  public ManualClock() {
    this(DEFAULT_START_MILLIS);
  }

  public ManualClock(long startMillis) {
    Preconditions.checkArgument(startMillis >= 0, "start time must be >= 0, got %s", startMillis);
    this.nowMillis = new AtomicLong(startMillis);
  }

  @Override
  public long nowMillis() {
    return nowMillis.get();
  }

  /** Moves the clock forward by {@code delta} (zero is fine, negative is not). */
  public void advance(Duration delta) {
    advanceMillis(delta.toMillis());
  }

  public void advanceMillis(long deltaMillis) {
    Preconditions.checkArgument(
        deltaMillis >= 0, "cannot move the clock back by %s ms", -deltaMillis);
    nowMillis.addAndGet(deltaMillis);
  }

  /** Sets the time; it must not be earlier than now. */
  public void set(long millis) {
    nowMillis.accumulateAndGet(
        millis,
        (current, wanted) -> {
          Preconditions.checkArgument(
              wanted >= current, "cannot move the clock back from %s to %s", current, wanted);
          return wanted;
        });
  }

  @Override
  public String toString() {
    return "ManualClock[" + nowMillis.get() + "]";
  }
}
