package io.ytstream.spark.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ytstream.core.plan.TriggerLimit;
import java.util.OptionalLong;
import org.apache.spark.sql.connector.read.streaming.ReadLimit;
import org.junit.jupiter.api.Test;

/** The trigger's limits travel through Spark's {@code ReadLimit} and back unchanged. */
class ReadLimitsTest {

  private static TriggerLimit limit(Long maxRows, Long minRows, long delayMs, Long maxBytes) {
    return new TriggerLimit(
        maxRows == null ? OptionalLong.empty() : OptionalLong.of(maxRows),
        minRows == null ? OptionalLong.empty() : OptionalLong.of(minRows),
        delayMs,
        maxBytes == null ? OptionalLong.empty() : OptionalLong.of(maxBytes));
  }

  @Test
  void bytesAloneAreSparksReadMaxBytes() {
    TriggerLimit bytes = limit(null, null, TriggerLimit.DEFAULT_MAX_DELAY_MS, 1L << 20);
    assertEquals(ReadLimit.maxBytes(1L << 20), ReadLimits.toSpark(bytes));
    assertEquals(bytes, ReadLimits.fromSpark(ReadLimits.toSpark(bytes)));
  }

  @Test
  void severalLimitsAreOneCompositeAndComeBackWhole() {
    TriggerLimit all = limit(1_000L, 10L, 30_000, 4096L);
    assertEquals(
        ReadLimit.compositeLimit(
            new ReadLimit[] {
              ReadLimit.minRows(10, 30_000), ReadLimit.maxRows(1_000), ReadLimit.maxBytes(4096)
            }),
        ReadLimits.toSpark(all));
    assertEquals(all, ReadLimits.fromSpark(ReadLimits.toSpark(all)));
    TriggerLimit rowsAndBytes = limit(1_000L, null, TriggerLimit.DEFAULT_MAX_DELAY_MS, 4096L);
    assertEquals(rowsAndBytes, ReadLimits.fromSpark(ReadLimits.toSpark(rowsAndBytes)));
  }

  @Test
  void allAvailableHasNoCap() {
    assertEquals(ReadLimit.allAvailable(), ReadLimits.toSpark(TriggerLimit.none()));
    assertEquals(TriggerLimit.none(), ReadLimits.fromSpark(ReadLimit.allAvailable()));
  }
}
