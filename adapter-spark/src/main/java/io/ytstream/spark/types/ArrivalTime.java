package io.ytstream.spark.types;

import java.util.OptionalLong;

/**
 * When a queue row arrived, in Unix milliseconds, from its {@code $timestamp} (the commit timestamp
 * of the writing transaction), if the queue declares that column.
 *
 * <p>Two encodings are understood, and they cannot be confused because their magnitudes differ by
 * three orders: YTsaurus timestamps keep Unix seconds above a 30-bit counter (about 2e18 today);
 * the in-memory cluster and the emulator use milliseconds times 1000 (about 2e15). A value that is
 * a plausible time in neither (before 2001 or more than a day ahead) is not reported.
 */
public final class ArrivalTime {

  private static final long YEAR_2001_MS = 978_307_200_000L;
  private static final long DAY_MS = 86_400_000L;

  private ArrivalTime() {}

  public static OptionalLong millis(OptionalLong timestamp, long nowMs) {
    if (timestamp.isEmpty()) {
      return OptionalLong.empty();
    }
    long ts = timestamp.getAsLong();
    long ytsaurus = (ts >>> 30) * 1000L;
    if (plausible(ytsaurus, nowMs)) {
      return OptionalLong.of(ytsaurus);
    }
    long inMemory = ts / 1000L;
    if (plausible(inMemory, nowMs)) {
      return OptionalLong.of(inMemory);
    }
    return OptionalLong.empty();
  }

  private static boolean plausible(long ms, long nowMs) {
    return ms >= YEAR_2001_MS && ms <= nowMs + DAY_MS;
  }
}
