package io.ytstream.benchmarks.latency;

/**
 * Wall-clock microseconds from {@link System#nanoTime}: one base taken at class load, so every
 * thread of this JVM (producer, real-time tasks, writer flush threads) reads the same monotonic
 * clock. Send and sink times are only ever compared inside one JVM ({@code local[N]}).
 */
public final class LatencyClock {

  private static final long BASE_MICROS = System.currentTimeMillis() * 1000;
  private static final long BASE_NANOS = System.nanoTime();

  private LatencyClock() {}

  public static long nowMicros() {
    return BASE_MICROS + (System.nanoTime() - BASE_NANOS) / 1000;
  }
}
