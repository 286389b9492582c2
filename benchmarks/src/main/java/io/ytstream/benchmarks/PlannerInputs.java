package io.ytstream.benchmarks;

import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.QueueBounds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * What the driver holds when it plans a batch of one queue with {@code partitions} partitions, in a
 * steady state with a backlog: the queue's bounds, the last checkpoint, the consumer (one batch
 * behind the checkpoint, as after a restart between {@code offsets/N} and the consumer commit), and
 * the checkpoint's offsets JSON. Seeded, so every run and every fork plans the same batch.
 *
 * <p>Each partition: a first readable row around one million (the queue has been trimmed), a
 * backlog of 0 to 200,000 rows (one in ten partitions is idle), the checkpoint inside the readable
 * range, so no data loss. With {@code max_rows_per_partition} at its default of 100,000 about half
 * the partitions are cut by the limit.
 */
public record PlannerInputs(
    QueueId queue,
    QueueBounds bounds,
    StreamOffsets checkpoint,
    StreamOffsets consumer,
    PlanLimits limits,
    String checkpointJson) {

  public static PlannerInputs of(int partitions) {
    return of(partitions, 20_260_101L);
  }

  public static PlannerInputs of(int partitions, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    QueueId queue = QueueId.of("primary", "//home/ytstream/bench/events_queue");
    List<PartitionBounds> bounds = new ArrayList<>(partitions);
    TreeMap<Integer, Long> checkpoint = new TreeMap<>();
    TreeMap<Integer, Long> consumer = new TreeMap<>();
    for (int i = 0; i < partitions; i++) {
      long trimmed = 1_000_000L + random.nextInt(100_000);
      long backlog = random.nextInt(10) == 0 ? 0 : random.nextInt(200_000);
      long readFrom = trimmed + random.nextInt(1_000);
      bounds.add(new PartitionBounds(i, trimmed, readFrom + backlog));
      checkpoint.put(i, readFrom);
      consumer.put(i, Math.max(trimmed, readFrom - random.nextInt(1_000)));
    }
    StreamOffsets checkpointOffsets = StreamOffsets.ofQueue(queue, checkpoint);
    return new PlannerInputs(
        queue,
        QueueBounds.of(Map.of(queue, bounds)),
        checkpointOffsets,
        StreamOffsets.ofQueue(queue, consumer),
        PlanLimits.defaults(),
        OffsetsJson.write(checkpointOffsets));
  }
}
