package io.ytstream.application.realtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DeferredConsumerAdvanceTest {

  private static final PartitionId P0 = new PartitionId(QueueId.of("primary", "//q"), 0);

  private final List<StreamOffsets> moves = new ArrayList<>();
  private RuntimeException failNext;
  private final DeferredConsumerAdvance advance =
      new DeferredConsumerAdvance(
          end -> {
            if (failNext != null) {
              RuntimeException e = failNext;
              failNext = null;
              throw e;
            }
            moves.add(end);
          },
          "primary://c",
          500);

  private static StreamOffsets at(long offset) {
    return StreamOffsets.of(Map.of(P0, offset));
  }

  @Test
  void aHandOverIsDueAfterTheQuietTimeAndALaterOneReplacesTheWaitingEnd() {
    assertEquals(Optional.of(1_500L), advance.handOver(at(3), 1_000));
    assertEquals(Optional.empty(), advance.handOver(at(7), 1_200), "a drain is already due");
    assertFalse(advance.idle());

    assertEquals(Optional.empty(), advance.drain());

    assertEquals(List.of(at(7)), moves, "straight to the later end");
    assertTrue(advance.idle());
    assertEquals(Optional.of(2_500L), advance.handOver(at(9), 2_000), "due again after a drain");
  }

  @Test
  void aFailureIsKeptAndThrownByTheNextHandOver() {
    RuntimeException broken = new IllegalStateException("advance refused");
    advance.handOver(at(3), 0);
    failNext = broken;

    assertEquals(Optional.of(broken), advance.drain());

    assertTrue(advance.idle());
    assertSame(broken, advance.failure().orElseThrow());
    assertSame(broken, assertThrows(RuntimeException.class, () -> advance.handOver(at(4), 10)));
    assertEquals(List.of(), moves);
  }

  @Test
  void aStoppedSourceSaysAMoveIsPendingAndDropsLaterEnds() {
    advance.handOver(at(3), 0);

    assertTrue(advance.stop(), "the pending move runs at once");
    advance.drain();
    assertEquals(List.of(at(3)), moves);
    // Spark's asynchronous progress tracking commits after stopping the source: no error, no move
    assertTrue(advance.stopped());
    assertEquals(Optional.empty(), advance.handOver(at(4), 10), "no move is due");
    assertEquals(Optional.empty(), advance.drain());
    assertEquals(List.of(at(3)), moves, "the end handed over after stop is dropped");
    assertTrue(advance.idle());
    assertFalse(new DeferredConsumerAdvance(end -> {}, "c", 1).stop(), "nothing pending");
  }
}
