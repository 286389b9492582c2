package io.ytstream.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Partitions a batch's start does not know are placed by a batch of their own, with no rows. */
class NewPartitionPlacementTest {

  private static final QueueId Q = QueueId.of("c", "//q");
  private static final PartitionId P0 = new PartitionId(Q, 0);
  private static final PartitionId P1 = new PartitionId(Q, 1);
  private static final PartitionId P2 = new PartitionId(Q, 2);

  @Test
  void aStartThatKnowsEveryPartitionPlacesNothing() {
    StreamOffsets start = StreamOffsets.of(Map.of(P0, 5L, P1, 7L));
    assertEquals(
        Optional.empty(),
        NewPartitionPlacement.of(start, start, StreamOffsets.empty(), DataLossPolicy.FAIL));
  }

  @Test
  void newPartitionsAreAddedAtTheirResolvedOffsetAndKnownOnesStayAtTheStart() {
    StreamOffsets start = StreamOffsets.of(Map.of(P0, 5L));
    // The resolver moved nothing of P0 (it is the start) and placed P1, P2 where the consumer is.
    StreamOffsets resolved = StreamOffsets.of(Map.of(P0, 5L, P1, 3L, P2, 0L));
    StreamOffsets consumer = StreamOffsets.of(Map.of(P0, 5L, P1, 3L));

    NewPartitionPlacement placed =
        NewPartitionPlacement.of(start, resolved, consumer, DataLossPolicy.FAIL).orElseThrow();

    assertEquals(StreamOffsets.of(Map.of(P0, 5L, P1, 3L, P2, 0L)), placed.end());
    assertEquals(List.of(), placed.losses(), "placed where the consumer stands: nothing lost");
    assertEquals(List.of(), RangesBetween.of(start, placed.end()), "the placing batch reads none");
  }

  @Test
  void rowsTrimmedBeforeAPlaceAreDataLossCountedFromTheConsumerOrZero() {
    StreamOffsets start = StreamOffsets.of(Map.of(P0, 5L));
    // P1's first row left is 4 though the consumer stands at 1; P2 has no consumer row (0).
    StreamOffsets resolved = StreamOffsets.of(Map.of(P0, 5L, P1, 4L, P2, 6L));
    StreamOffsets consumer = StreamOffsets.of(Map.of(P1, 1L));

    NewPartitionPlacement placed =
        NewPartitionPlacement.of(start, resolved, consumer, DataLossPolicy.SKIP_AND_REPORT)
            .orElseThrow();

    assertEquals(List.of(new DataLoss(P1, 1, 4), new DataLoss(P2, 0, 6)), placed.losses());
    assertEquals(3 + 6, DataLoss.totalRows(placed.losses()));
    assertEquals(StreamOffsets.of(Map.of(P0, 5L, P1, 4L, P2, 6L)), placed.end());

    DataLossException e =
        assertThrows(
            DataLossException.class,
            () -> NewPartitionPlacement.of(start, resolved, consumer, DataLossPolicy.FAIL));
    assertEquals(placed.losses(), e.losses());
    assertTrue(e.getMessage().contains("fail_on_data_loss=false"), e.getMessage());
  }

  @Test
  void aConsumerAheadOfThePlaceLosesNothing() {
    StreamOffsets start = StreamOffsets.of(Map.of(P0, 5L));
    StreamOffsets resolved = StreamOffsets.of(Map.of(P0, 5L, P1, 2L));
    NewPartitionPlacement placed =
        NewPartitionPlacement.of(
                start, resolved, StreamOffsets.of(Map.of(P1, 9L)), DataLossPolicy.FAIL)
            .orElseThrow();
    assertEquals(List.of(), placed.losses());
  }
}
