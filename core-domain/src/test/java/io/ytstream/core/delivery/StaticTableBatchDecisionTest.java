package io.ytstream.core.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class StaticTableBatchDecisionTest {

  @Test
  void aTableWithoutARecordTakesTheBatch() {
    assertEquals(
        StaticTableBatchDecision.WRITE, StaticTableBatchDecision.of(OptionalLong.empty(), 0));
    assertTrue(StaticTableBatchDecision.of(OptionalLong.empty(), 7).writes());
  }

  @Test
  void theBatchAfterTheRecordedOneIsWritten() {
    assertEquals(
        StaticTableBatchDecision.WRITE, StaticTableBatchDecision.of(OptionalLong.of(4), 5));
  }

  @Test
  void theRecordedBatchIsNotWrittenAgain() {
    StaticTableBatchDecision d = StaticTableBatchDecision.of(OptionalLong.of(5), 5);
    assertEquals(StaticTableBatchDecision.ALREADY_WRITTEN, d);
    assertFalse(d.writes());
  }

  @Test
  void aBatchBehindTheRecordIsNotWritten() {
    StaticTableBatchDecision d = StaticTableBatchDecision.of(OptionalLong.of(9), 5);
    assertEquals(StaticTableBatchDecision.LATER_BATCH_WRITTEN, d);
    assertFalse(d.writes());
  }

  @Test
  void aNegativeBatchIsRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> StaticTableBatchDecision.of(OptionalLong.empty(), -1));
  }
}
