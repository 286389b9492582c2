package io.ytstream.core.plan;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.PartitionOrder;
import io.ytstream.core.model.StreamOffsets;
import java.util.Optional;

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
    int listed = bounds.size();
    StreamOffsets.Cursor consumerAt = consumer.cursor();
    if (checkpoint.isEmpty()) {
      StreamOffsets.Builder start = StreamOffsets.builder(listed);
      for (int i = 0; i < listed; i++) {
        PartitionId partition = bounds.partitionAt(i);
        start.add(partition, consumerAt.getOrDefault(partition, 0));
      }
      return start.build();
    }
    // One merge of the listed partitions with the checkpoint's, both in partition order.
    StreamOffsets logged = checkpoint.get();
    int loggedCount = logged.size();
    StreamOffsets.Builder start = StreamOffsets.builder(Math.max(listed, loggedCount));
    PartitionOrder order = new PartitionOrder();
    int i = 0;
    int j = 0;
    while (i < listed || j < loggedCount) {
      int c =
          i == listed
              ? 1
              : j == loggedCount ? -1 : order.compare(bounds.partitionAt(i), logged.partitionAt(j));
      if (c < 0) {
        // Not in the checkpoint: the tablet count grew after it was written.
        PartitionId partition = bounds.partitionAt(i);
        start.add(
            partition, consumerAt.getOrDefault(partition, bounds.boundsAt(i).trimmedRowCount()));
        i++;
      } else if (c == 0) {
        start.add(bounds.partitionAt(i), logged.offsetAt(j));
        i++;
        j++;
      } else {
        // Keep partitions that metadata no longer lists, so nothing is forgotten.
        start.add(logged.partitionAt(j), logged.offsetAt(j));
        j++;
      }
    }
    return start.build();
  }
}
