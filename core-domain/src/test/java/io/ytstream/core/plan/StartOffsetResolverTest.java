package io.ytstream.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class StartOffsetResolverTest {

  private static final QueueId Q = QueueId.of("c", "//q");
  private static final QueueId R = QueueId.of("c", "//r");

  /**
   * Every combination, for three partitions over two queues, of: checkpoint absent or present (and
   * then each partition missing from it, at 0 or at 3), consumer row missing, at 1 or at 4, and
   * trimmed row count 0 or 2.
   */
  @Test
  void exhaustive() {
    PartitionId[] ids = {new PartitionId(Q, 0), new PartitionId(Q, 1), new PartitionId(R, 0)};
    long[] checkpointValues = {-1, 0, 3};
    long[] consumerValues = {-1, 1, 4};
    long[] trimmedValues = {0, 2};
    int perPartition = checkpointValues.length * consumerValues.length * trimmedValues.length;
    int combos = perPartition * perPartition * perPartition;
    PartitionId gone = new PartitionId(QueueId.of("c", "//gone"), 2);
    PartitionId consumerOnly = new PartitionId(QueueId.of("c", "//other"), 0);
    for (int code = 0; code < combos; code++) {
      TreeMap<PartitionId, Long> checkpoint = new TreeMap<>();
      TreeMap<PartitionId, Long> consumer = new TreeMap<>();
      TreeMap<QueueId, List<PartitionBounds>> bounds = new TreeMap<>();
      long[] ck = new long[3];
      long[] co = new long[3];
      long[] tr = new long[3];
      int c = code;
      for (int i = 0; i < 3; i++) {
        int x = c % perPartition;
        c /= perPartition;
        ck[i] = checkpointValues[x % 3];
        co[i] = consumerValues[(x / 3) % 3];
        tr[i] = trimmedValues[x / 9];
        if (ck[i] >= 0) {
          checkpoint.put(ids[i], ck[i]);
        }
        if (co[i] >= 0) {
          consumer.put(ids[i], co[i]);
        }
        bounds
            .computeIfAbsent(ids[i].queue(), q -> new java.util.ArrayList<>())
            .add(new PartitionBounds(ids[i].index(), tr[i], 10));
      }
      consumer.put(consumerOnly, 8L);
      QueueBounds qb = QueueBounds.of(bounds);
      StreamOffsets consumerOffsets = StreamOffsets.of(consumer);
      String ctx = "checkpoint=" + checkpoint + " consumer=" + consumer + " bounds=" + bounds;

      // No checkpoint: the consumer's row, or 0 when there is none.
      TreeMap<PartitionId, Long> expectedFresh = new TreeMap<>();
      for (int i = 0; i < 3; i++) {
        expectedFresh.put(ids[i], co[i] >= 0 ? co[i] : 0);
      }
      assertEquals(
          StreamOffsets.of(expectedFresh),
          StartOffsetResolver.resolve(Optional.empty(), consumerOffsets, qb),
          ctx + " without checkpoint");

      // With a checkpoint: it wins; a partition it lacks starts at the consumer row or the
      // partition's first row; partitions only the checkpoint knows are kept.
      checkpoint.put(gone, 6L);
      TreeMap<PartitionId, Long> expected = new TreeMap<>();
      for (int i = 0; i < 3; i++) {
        expected.put(ids[i], ck[i] >= 0 ? ck[i] : co[i] >= 0 ? co[i] : tr[i]);
      }
      expected.put(gone, 6L);
      assertEquals(
          StreamOffsets.of(expected),
          StartOffsetResolver.resolve(
              Optional.of(StreamOffsets.of(checkpoint)), consumerOffsets, qb),
          ctx + " with checkpoint");
    }
  }

  @Test
  void emptyCheckpointMeansEveryPartitionIsNew() {
    QueueBounds bounds =
        QueueBounds.ofQueue(Q, List.of(new PartitionBounds(0, 5, 9), new PartitionBounds(1, 0, 9)));
    assertEquals(
        StreamOffsets.ofQueue(Q, Map.of(0, 5L, 1, 3L)),
        StartOffsetResolver.resolve(
            Optional.of(StreamOffsets.empty()), StreamOffsets.ofQueue(Q, Map.of(1, 3L)), bounds));
    // Without a checkpoint a missing consumer row is 0 even when the partition is trimmed: the
    // planner then reports the trimmed rows as data loss.
    assertEquals(
        StreamOffsets.ofQueue(Q, Map.of(0, 0L, 1, 3L)),
        StartOffsetResolver.resolve(
            Optional.empty(), StreamOffsets.ofQueue(Q, Map.of(1, 3L)), bounds));
  }

  @Test
  void checkpointValueZeroIsNotMissing() {
    QueueBounds bounds = QueueBounds.ofQueue(Q, List.of(new PartitionBounds(0, 0, 9)));
    assertEquals(
        StreamOffsets.ofQueue(Q, Map.of(0, 0L)),
        StartOffsetResolver.resolve(
            Optional.of(StreamOffsets.ofQueue(Q, Map.of(0, 0L))),
            StreamOffsets.ofQueue(Q, Map.of(0, 7L)),
            bounds));
  }
}
