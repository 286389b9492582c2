package io.ytstream.core.plan;

import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Where a stream starts reading each partition.
 *
 * <ul>
 *   <li>With no checkpoint: the consumer's offset, a missing consumer row meaning 0.
 *   <li>With a checkpoint: the checkpoint's offset. A partition the checkpoint does not know (the
 *       tablet count grew after it was written) starts at the consumer's offset if the consumer has
 *       a row for it, else at the partition's first row ({@code trimmed_row_count}): rows below a
 *       new tablet's first row never existed for this stream.
 * </ul>
 *
 * Trimmed starts are not corrected here; the planner reports them as data loss.
 */
public final class StartOffsetResolver {

  private StartOffsetResolver() {}

  public static StreamOffsets resolve(
      Optional<StreamOffsets> checkpoint, StreamOffsets consumer, QueueBounds bounds) {
    TreeMap<PartitionId, Long> start = new TreeMap<>();
    for (Map.Entry<PartitionId, PartitionBounds> entry : bounds.asMap().entrySet()) {
      PartitionId partition = entry.getKey();
      long offset;
      if (checkpoint.isEmpty()) {
        offset = consumer.getOrDefault(partition, 0);
      } else if (checkpoint.get().get(partition).isPresent()) {
        offset = checkpoint.get().getOrDefault(partition, 0);
      } else {
        offset = consumer.getOrDefault(partition, entry.getValue().trimmedRowCount());
      }
      start.put(partition, offset);
    }
    checkpoint.ifPresent(
        c ->
            c.asMap()
                .forEach(
                    (partition, offset) -> {
                      // Keep partitions that metadata no longer lists, so nothing is forgotten.
                      start.putIfAbsent(partition, offset);
                    }));
    return StreamOffsets.of(start);
  }
}
