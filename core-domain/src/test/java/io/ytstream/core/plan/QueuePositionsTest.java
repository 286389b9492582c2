package io.ytstream.core.plan;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class QueuePositionsTest {

  private static final QueueId Q = QueueId.of("primary", "//home/q");
  private static final QueueId R = QueueId.of("primary", "//home/r");

  private static StreamOffsets offsets(Object... queueIndexOffset) {
    TreeMap<PartitionId, Long> m = new TreeMap<>();
    for (int i = 0; i < queueIndexOffset.length; i += 3) {
      m.put(
          new PartitionId((QueueId) queueIndexOffset[i], (Integer) queueIndexOffset[i + 1]),
          (Long) queueIndexOffset[i + 2]);
    }
    return StreamOffsets.of(m);
  }

  @Test
  void offsetsWithinTheBoundsAndNewPartitionsAreTrusted() {
    QueueBounds bounds =
        QueueBounds.ofQueue(
            Q,
            List.of(
                new PartitionBounds(0, 0, 10),
                new PartitionBounds(1, 8, 8),
                new PartitionBounds(2, 0, 4)));
    // Partition 1 trimmed past its offset is data loss, not distrust; partition 2 is new.
    assertDoesNotThrow(() -> QueuePositions.check(offsets(Q, 0, 10L, Q, 1, 3L), bounds));
  }

  @Test
  void aShrunkQueueNamesTheMissingPartitionsAndTheirOffsets() {
    QueueBounds bounds = QueueBounds.ofQueue(Q, List.of(new PartitionBounds(0, 0, 10)));
    UntrustedPositionsException e =
        assertThrows(
            UntrustedPositionsException.class,
            () -> QueuePositions.check(offsets(Q, 0, 4L, Q, 1, 7L, Q, 2, 9L), bounds));
    String m = e.getMessage();
    assertTrue(
        m.startsWith(
            "queue //home/q has 1 partition(s) now, but the checkpoint holds offsets for"
                + " partition 1 at offset 7, partition 2 at offset 9."),
        m);
    assertTrue(m.contains("shrank"), m);
    assertTrue(m.contains("new checkpointLocation"), m);
  }

  @Test
  void anEndBelowTheOffsetIsARecreatedQueue() {
    QueueBounds bounds =
        QueueBounds.ofQueue(
            Q, List.of(new PartitionBounds(0, 0, 10), new PartitionBounds(1, 2, 3)));
    UntrustedPositionsException e =
        assertThrows(
            UntrustedPositionsException.class,
            () -> QueuePositions.check(offsets(Q, 0, 10L, Q, 1, 5L), bounds));
    String m = e.getMessage();
    assertTrue(
        m.startsWith(
            "partition 1 of queue //home/q ends at row 3 (first readable row 2), below the"
                + " checkpoint's offset 5."),
        m);
    assertTrue(m.contains("re-created or truncated"), m);
    assertTrue(m.contains("trimmed_row_counts"), m);
  }

  @Test
  void aQueueNoLongerReadIsNotJudged() {
    QueueBounds bounds = QueueBounds.of(Map.of(Q, List.of(new PartitionBounds(0, 0, 1))));
    assertDoesNotThrow(() -> QueuePositions.check(offsets(Q, 0, 1L, R, 3, 100L), bounds));
  }

  @Test
  void shrinkIsReportedPerQueueBeforeRowsBehind() {
    QueueBounds bounds =
        QueueBounds.of(
            Map.of(
                Q, List.of(new PartitionBounds(0, 0, 1)),
                R, List.of(new PartitionBounds(0, 0, 1))));
    UntrustedPositionsException e =
        assertThrows(
            UntrustedPositionsException.class,
            () -> QueuePositions.check(offsets(Q, 0, 5L, R, 0, 1L, R, 1, 2L), bounds));
    assertTrue(
        e.getMessage()
            .startsWith(
                "queue //home/r has 1 partition(s) now, but the checkpoint holds offsets for"
                    + " partition 1 at offset 2."),
        e.getMessage());
  }
}
