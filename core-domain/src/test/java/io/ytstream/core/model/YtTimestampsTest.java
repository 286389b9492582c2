package io.ytstream.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class YtTimestampsTest {

  // 2024-01-01T00:00:00Z; the expected bits are worked out by hand.
  private static final long SECOND = 1_704_067_200L;

  @Test
  void theSecondsAreTheBitsAboveTheCounter() {
    long timestamp = (SECOND << 30) | 123_456;
    assertEquals(0x1964_8020_0001_e240L, timestamp);
    assertEquals(SECOND, YtTimestamps.toEpochSecond(timestamp));
    assertEquals(SECOND * 1000, YtTimestamps.toEpochMillis(timestamp));
    assertEquals(SECOND << 30, YtTimestamps.fromEpochSecond(SECOND));
  }

  @Test
  void anInstantMapsToTheLowestTimestampOfItsSecond() {
    assertEquals(SECOND << 30, YtTimestamps.lowestAtEpochMillis(SECOND * 1000));
    assertEquals(SECOND << 30, YtTimestamps.lowestAtEpochMillis(SECOND * 1000 + 999));
    assertEquals((SECOND + 1) << 30, YtTimestamps.lowestAtEpochMillis(SECOND * 1000 + 1000));
    assertEquals(0, YtTimestamps.lowestAtEpochMillis(0));
  }

  @Test
  void everyTimestampOfASecondIsAtOrAfterAnInstantOfThatSecond() {
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 1000; i++) {
      long millis = random.nextLong(4_000_000_000_000L);
      long counter = random.nextLong(1L << 30);
      long timestamp = YtTimestamps.fromEpochSecond(millis / 1000) + counter;
      assertTrue(timestamp >= YtTimestamps.lowestAtEpochMillis(millis));
      assertTrue(timestamp < YtTimestamps.lowestAtEpochMillis(millis + 1000 - millis % 1000));
      assertEquals(millis - millis % 1000, YtTimestamps.toEpochMillis(timestamp));
    }
  }

  @Test
  void outOfRangeValuesAreRefusedWithTheRange() {
    IllegalArgumentException negative =
        assertThrows(IllegalArgumentException.class, () -> YtTimestamps.lowestAtEpochMillis(-1));
    assertTrue(negative.getMessage().contains("got -1"), negative.getMessage());
    IllegalArgumentException sentinel =
        assertThrows(IllegalArgumentException.class, () -> YtTimestamps.toEpochSecond(-1L));
    assertTrue(sentinel.getMessage().contains("got 18446744073709551615"), sentinel.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> YtTimestamps.fromEpochSecond(YtTimestamps.MAX_EPOCH_SECOND + 1));
    assertEquals(
        YtTimestamps.MAX_EPOCH_SECOND, YtTimestamps.toEpochSecond(YtTimestamps.MAX_TIMESTAMP));
  }
}
