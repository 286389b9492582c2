package io.ytstream.core.plan;

import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Whether offsets from a checkpoint (or a batch's start) can still be trusted against a queue's
 * bounds now. Row indexes of a queue partition only grow: trimming raises the first readable row
 * but never lowers {@code total_row_count}, and resharding only adds partitions. So two things mean
 * the offsets point at other rows than they were taken for:
 *
 * <ul>
 *   <li>a queue read has fewer partitions than the offsets name (its tablet count shrank, or it was
 *       re-created with fewer tablets);
 *   <li>a partition's end ({@code total_row_count}) is below its offset: rows already read are gone
 *       without trimming, so the queue was re-created or truncated.
 * </ul>
 *
 * Partitions of queues the bounds do not list are not judged (the query no longer reads them).
 * Pure; the same inputs give the same verdict, and the message names partitions in order.
 */
public final class QueuePositions {

  private QueuePositions() {}

  /**
   * @throws UntrustedPositionsException when {@code offsets} do not fit {@code bounds}
   */
  public static void check(StreamOffsets offsets, QueueBounds bounds) {
    Map<QueueId, Integer> partitionCounts = new TreeMap<>();
    for (int i = 0; i < bounds.size(); i++) {
      partitionCounts.merge(bounds.partitionAt(i).queue(), 1, Integer::sum);
    }
    Map<QueueId, List<String>> vanished = new TreeMap<>();
    List<String> behind = new ArrayList<>();
    for (int i = 0; i < offsets.size(); i++) {
      PartitionId p = offsets.partitionAt(i);
      long offset = offsets.offsetAt(i);
      Integer count = partitionCounts.get(p.queue());
      if (count == null) {
        continue;
      }
      if (p.index() >= count) {
        vanished
            .computeIfAbsent(p.queue(), q -> new ArrayList<>())
            .add("partition " + p.index() + " at offset " + offset);
        continue;
      }
      PartitionBounds b = bounds.get(p);
      if (offset > b.totalRowCount()) {
        behind.add(
            "partition "
                + p.index()
                + " of queue "
                + p.queue().path()
                + " ends at row "
                + b.totalRowCount()
                + " (first readable row "
                + b.trimmedRowCount()
                + "), below the checkpoint's offset "
                + offset);
      }
    }
    if (!vanished.isEmpty()) {
      StringBuilder m = new StringBuilder();
      vanished.forEach(
          (queue, lost) -> {
            if (m.length() > 0) {
              m.append("; ");
            }
            m.append("queue ")
                .append(queue.path())
                .append(" has ")
                .append(partitionCounts.get(queue))
                .append(" partition(s) now, but the checkpoint holds offsets for ")
                .append(String.join(", ", lost));
          });
      throw new UntrustedPositionsException(
          m
              + ". The queue's partition count shrank (it was resharded down or re-created):"
              + " rows of the missing partitions cannot be read and the offsets of the others may"
              + " not mean the same rows, so nothing was read. Restore the queue's partitions, or"
              + " start the query on a new checkpointLocation with a consumer whose offsets fit"
              + " the queue as it is now");
    }
    if (!behind.isEmpty()) {
      throw new UntrustedPositionsException(
          String.join("; ", behind)
              + ". Rows the query has already passed are gone, which trimming never does (it keeps"
              + " row indexes): the queue was re-created or truncated, so its row indexes no"
              + " longer mean the rows the checkpoint counted, and nothing was read. Start the"
              + " query on a new checkpointLocation with a new or reset consumer, or re-create"
              + " the queue with trimmed_row_counts so its row indexes go on from the"
              + " checkpoint's offsets");
    }
  }
}
