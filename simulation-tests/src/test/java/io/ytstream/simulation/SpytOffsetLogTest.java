package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.checkpoint.OffsetLogEntry;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The simulation's SPYT-logged entries read back as the offsets they log. */
class SpytOffsetLogTest {

  private static final QueueId Q = QueueId.of("primary", "//sim/queue0");
  private static final QueueId R = QueueId.of("primary", "//sim/queue1");

  @Test
  void oneQueueIsLoggedInSpytsFormAndReadBackTheSame() {
    StreamOffsets end =
        StreamOffsets.of(Map.of(new PartitionId(Q, 0), 0L, new PartitionId(Q, 1), 7L));
    String entry = SpytOffsetLog.entry(end);
    assertTrue(
        entry.endsWith(
            "{\"cluster\":\"primary\",\"path\":\"//sim/queue0\",\"partitions\":{\"0\":-1,\"1\":6}}"),
        entry);
    assertEquals(List.of(end), OffsetLogEntry.ytOffsets(entry));
  }

  @Test
  void whatSpytCannotHoldIsLoggedInOurs() {
    StreamOffsets twoQueues =
        StreamOffsets.of(Map.of(new PartitionId(Q, 0), 1L, new PartitionId(R, 0), 2L));
    StreamOffsets gap =
        StreamOffsets.of(Map.of(new PartitionId(Q, 0), 1L, new PartitionId(Q, 2), 2L));
    assertEquals(OffsetLogEntry.of(twoQueues), SpytOffsetLog.entry(twoQueues));
    assertEquals(OffsetLogEntry.of(gap), SpytOffsetLog.entry(gap));
  }
}
