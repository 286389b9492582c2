package io.ytstream.core.model;

/**
 * YTsaurus hybrid timestamps and Unix time. A timestamp (what {@code $timestamp} of an ordered
 * dynamic table holds: the row's commit timestamp) is a uint64 whose bits 30-61 are Unix seconds
 * and bits 0-29 a counter within that second ({@code yt/yt/client/transaction_client/public.h},
 * {@code TimestampCounterWidth = 30}). The server converts with {@code UnixTimeFromTimestamp} and
 * {@code TimestampFromUnixTime} ({@code yt/yt/client/transaction_client/helpers.cpp}): a shift,
 * whole seconds only; {@code InstantToTimestamp} truncates an instant to its second first.
 *
 * <p>A timestamp therefore knows its second and nothing finer: {@link #toEpochMillis} is the start
 * of that second, and {@link #lowestAtEpochMillis} is the lowest timestamp of the second that holds
 * the instant. Positions by time compare a row's timestamp with the latter, so a row of the same
 * second as the instant counts as at or after it.
 */
public final class YtTimestamps {

  /** Bits of the counter below the seconds. */
  public static final int COUNTER_WIDTH = 30;

  /** The largest valid timestamp ({@code MaxTimestamp}); values above are sentinels. */
  public static final long MAX_TIMESTAMP = 0x3fffffffffffff00L;

  /** The largest Unix second a timestamp holds. */
  public static final long MAX_EPOCH_SECOND = MAX_TIMESTAMP >>> COUNTER_WIDTH;

  private YtTimestamps() {}

  /** The Unix second of {@code timestamp} ({@code UnixTimeFromTimestamp}). */
  public static long toEpochSecond(long timestamp) {
    requireTimestamp(timestamp);
    return timestamp >>> COUNTER_WIDTH;
  }

  /** The start of the second of {@code timestamp}, in milliseconds since the epoch. */
  public static long toEpochMillis(long timestamp) {
    return toEpochSecond(timestamp) * 1000;
  }

  /** The lowest timestamp of Unix second {@code epochSecond} ({@code TimestampFromUnixTime}). */
  public static long fromEpochSecond(long epochSecond) {
    if (epochSecond < 0 || epochSecond > MAX_EPOCH_SECOND) {
      throw new IllegalArgumentException(
          "a Unix second must be within 0.." + MAX_EPOCH_SECOND + ", got " + epochSecond);
    }
    return epochSecond << COUNTER_WIDTH;
  }

  /**
   * The lowest timestamp of the second that holds {@code epochMillis} (the first of the server's
   * {@code InstantToTimestamp} pair).
   */
  public static long lowestAtEpochMillis(long epochMillis) {
    if (epochMillis < 0) {
      throw new IllegalArgumentException(
          "milliseconds since the epoch must be >= 0, got " + epochMillis);
    }
    return fromEpochSecond(epochMillis / 1000);
  }

  private static void requireTimestamp(long timestamp) {
    // Unsigned on the wire; a negative long is a uint64 above MaxTimestamp, a sentinel.
    if (timestamp < 0 || timestamp > MAX_TIMESTAMP) {
      throw new IllegalArgumentException(
          "a YTsaurus timestamp must be within 0.."
              + MAX_TIMESTAMP
              + ", got "
              + Long.toUnsignedString(timestamp));
    }
  }
}
