package io.ytstream.core.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.delivery.BatchShareDecision.Action;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BatchShareNumberingTest {

  private static final long K = BatchShareNumbering.NUMBERS_PER_BATCH;

  @Test
  void eachBatchOwnsItsOwnRangeOfNumbers() {
    assertEquals(0, BatchShareNumbering.base(0));
    assertEquals(K, BatchShareNumbering.base(1));
    assertEquals(7 * K, BatchShareNumbering.base(7));
    long max = BatchShareNumbering.MAX_BATCH_ID;
    long lastNumber = BatchShareNumbering.base(max) + K - 1;
    assertTrue(lastNumber > BatchShareNumbering.base(max), "the last batch's range does not wrap");
  }

  @Test
  void batchIdsOutsideTheNumberRangeAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> BatchShareNumbering.base(-1));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> BatchShareNumbering.base(BatchShareNumbering.MAX_BATCH_ID + 1));
    assertTrue(e.getMessage().contains("int64"), e.getMessage());
  }

  @Test
  void aNewSessionPushesFromTheBase() {
    BatchShareDecision d = BatchShareNumbering.decide(3, 5, -1);
    assertEquals(Action.PUSH, d.action());
    assertEquals(3 * K, d.firstSequenceNumber());
    assertEquals(3 * K + 4, d.lastSequenceNumber());
    assertEquals(0, d.earlierRowCount());
    assertTrue(d.pushes());
  }

  @Test
  void aSessionAtAnEarlierBatchPushes() {
    // Batch 2 pushed 10 rows; batch 3 is new to the session.
    BatchShareDecision d = BatchShareNumbering.decide(3, 1, 2 * K + 9);
    assertEquals(Action.PUSH, d.action());
    assertEquals(3 * K, d.firstSequenceNumber());
  }

  @Test
  void anEmptyShareOfANewBatchPushesNothing() {
    BatchShareDecision d = BatchShareNumbering.decide(3, 0, 2 * K + 9);
    assertEquals(Action.NOTHING_TO_PUSH, d.action());
    assertFalse(d.pushes());
  }

  @Test
  void aReplayWithTheSameRowCountIsAlreadyPushed() {
    BatchShareDecision d = BatchShareNumbering.decide(3, 5, 3 * K + 4);
    assertEquals(Action.ALREADY_PUSHED, d.action());
    assertEquals(5, d.earlierRowCount());
    assertFalse(d.pushes(), "a share the session holds is not pushed again, chunk by chunk");
  }

  @Test
  void whetherAShareIsPushedIsKnownWhenItStarts() {
    assertTrue(BatchShareNumbering.holdsNothingOf(3, -1));
    assertTrue(BatchShareNumbering.holdsNothingOf(3, 3 * K - 1), "the last number of batch 2");
    assertFalse(BatchShareNumbering.holdsNothingOf(3, 3 * K), "one row of batch 3");
    assertFalse(BatchShareNumbering.holdsNothingOf(3, 4 * K + 2), "a later batch");
    assertThrows(IllegalArgumentException.class, () -> BatchShareNumbering.holdsNothingOf(3, -2));
  }

  @Test
  void aReplayWithAnotherRowCountIsAChangedOutput() {
    BatchShareDecision more = BatchShareNumbering.decide(3, 6, 3 * K + 4);
    assertEquals(Action.OUTPUT_CHANGED, more.action());
    assertEquals(5, more.earlierRowCount());
    assertFalse(more.pushes(), "pushing would add a sixth row to the earlier attempt's five");
    BatchShareDecision fewer = BatchShareNumbering.decide(3, 4, 3 * K + 4);
    assertEquals(Action.OUTPUT_CHANGED, fewer.action());
    BatchShareDecision none = BatchShareNumbering.decide(3, 0, 3 * K);
    assertEquals(Action.OUTPUT_CHANGED, none.action());
    assertEquals(1, none.earlierRowCount());
  }

  @Test
  void aSessionAtALaterBatchPushesNothing() {
    BatchShareDecision d = BatchShareNumbering.decide(3, 5, 4 * K);
    assertEquals(Action.LATER_BATCH_PUSHED, d.action());
    assertFalse(d.pushes());
    assertEquals(
        Action.LATER_BATCH_PUSHED, BatchShareNumbering.decide(3, 5, 4 * K - 1 + 1).action());
    assertEquals(Action.OUTPUT_CHANGED, BatchShareNumbering.decide(3, 5, 4 * K - 1).action());
  }

  @Test
  void badCountsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> BatchShareNumbering.decide(0, -1, -1));
    assertThrows(IllegalArgumentException.class, () -> BatchShareNumbering.decide(0, K + 1, -1));
    assertThrows(IllegalArgumentException.class, () -> BatchShareNumbering.decide(0, 1, -2));
  }

  /**
   * Over a seeded run of batches and replays, a session's numbers only grow and every batch's rows
   * are pushed once: a replay finds the share already pushed, whatever the earlier batches held.
   */
  @Test
  void replaysOfSeededBatchesNeverPushTwice() {
    Random random = new Random(42);
    long session = -1;
    long written = 0;
    long expected = 0;
    for (long batch = 0; batch < 500; batch++) {
      long rows = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(100_000);
      expected += rows;
      int attempts = 1 + random.nextInt(3);
      for (int attempt = 0; attempt < attempts; attempt++) {
        BatchShareDecision d = BatchShareNumbering.decide(batch, rows, session);
        if (attempt == 0) {
          assertEquals(rows == 0 ? Action.NOTHING_TO_PUSH : Action.PUSH, d.action());
        } else if (rows > 0) {
          assertEquals(Action.ALREADY_PUSHED, d.action(), "batch " + batch);
        }
        if (d.pushes()) {
          // The server writes the rows numbered above the session's number.
          long first = d.firstSequenceNumber();
          long last = d.lastSequenceNumber();
          written += Math.max(0, last - Math.max(first - 1, session));
          assertTrue(first > session);
          session = Math.max(session, last);
        }
      }
    }
    assertEquals(expected, written);
  }
}
