package io.ytstream.benchmarks.latency;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Wall-clock microseconds from {@link System#nanoTime}: one base taken at class load, so every
 * thread of this JVM (real-time tasks, writer flush threads) reads the same monotonic clock. The
 * base is the machine's wall clock to the microsecond ({@link Instant#now}), so the producer in the
 * emulator's JVM ({@link StoreMain}) and the sink in Spark's agree to within microseconds, not the
 * millisecond of {@code currentTimeMillis}.
 */
public final class LatencyClock {

  private static final long BASE_MICROS = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
  private static final long BASE_NANOS = System.nanoTime();

  private LatencyClock() {}

  public static long nowMicros() {
    return BASE_MICROS + (System.nanoTime() - BASE_NANOS) / 1000;
  }
}
