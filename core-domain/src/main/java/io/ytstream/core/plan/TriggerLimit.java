package io.ytstream.core.plan;

import java.util.OptionalLong;

/**
 * How much one trigger reads over all partitions together, as Kafka's source sizes triggers: at
 * most {@code maxRows} ({@code max_rows_per_trigger}, Kafka's {@code maxOffsetsPerTrigger}) and at
 * most {@code maxBytes} of data weight ({@code max_bytes_per_trigger}, Spark's {@code
 * ReadMaxBytes}), and no batch until at least {@code minRows} rows wait ({@code
 * min_rows_per_trigger}) unless {@code maxDelayMs} passed since the last batch ({@code
 * max_trigger_delay}).
 *
 * @param maxRows the total cap, split across partitions by backlog ({@link TriggerBudget})
 * @param minRows the fewest rows worth a batch
 * @param maxDelayMs how long {@code minRows} may hold a batch back
 * @param maxBytes the total data weight cap, split across partitions by their bytes ({@link
 *     ByteBudget})
 */
public record TriggerLimit(
    OptionalLong maxRows, OptionalLong minRows, long maxDelayMs, OptionalLong maxBytes) {

  /** Kafka's default for {@code maxTriggerDelay}: 15 minutes. */
  public static final long DEFAULT_MAX_DELAY_MS = 15 * 60 * 1000L;

  public TriggerLimit {
    if (maxRows.isPresent() && maxRows.getAsLong() < 1) {
      throw new IllegalArgumentException("maxRows must be >= 1, got " + maxRows.getAsLong());
    }
    if (minRows.isPresent() && minRows.getAsLong() < 1) {
      throw new IllegalArgumentException("minRows must be >= 1, got " + minRows.getAsLong());
    }
    if (maxRows.isPresent() && minRows.isPresent() && minRows.getAsLong() > maxRows.getAsLong()) {
      throw new IllegalArgumentException(
          "minRows " + minRows.getAsLong() + " exceeds maxRows " + maxRows.getAsLong());
    }
    if (maxDelayMs < 0) {
      throw new IllegalArgumentException("maxDelayMs must be >= 0, got " + maxDelayMs);
    }
    if (maxBytes.isPresent() && maxBytes.getAsLong() < 1) {
      throw new IllegalArgumentException("maxBytes must be >= 1, got " + maxBytes.getAsLong());
    }
  }

  /** A limit by rows only. */
  public TriggerLimit(OptionalLong maxRows, OptionalLong minRows, long maxDelayMs) {
    this(maxRows, minRows, maxDelayMs, OptionalLong.empty());
  }

  /** Everything available in one trigger. */
  public static TriggerLimit none() {
    return new TriggerLimit(OptionalLong.empty(), OptionalLong.empty(), DEFAULT_MAX_DELAY_MS);
  }

  /** This limit without its minimum (Trigger.AvailableNow must not wait: it ends on no data). */
  public TriggerLimit withoutMinimum() {
    return new TriggerLimit(maxRows, OptionalLong.empty(), maxDelayMs, maxBytes);
  }

  /**
   * True when a batch waits: fewer than {@code minRows} rows are available and the last batch was
   * less than {@code maxDelayMs} ago. Time is an input, so the decision is repeatable.
   *
   * @param availableRows rows between the start and the end of every partition
   * @param msSinceLastBatch time since the last batch was planned (or since the query began)
   */
  public boolean holdsBack(long availableRows, long msSinceLastBatch) {
    return minRows.isPresent()
        && availableRows < minRows.getAsLong()
        && msSinceLastBatch < maxDelayMs;
  }
}
