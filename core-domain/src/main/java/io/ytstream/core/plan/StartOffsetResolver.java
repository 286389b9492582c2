package io.ytstream.core.plan;

import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.PartitionOrder;
import io.ytstream.core.model.StartingOffsets;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

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

  /**
   * Where each partition of {@code bounds} starts under {@code starting} (a query with neither a
   * checkpoint nor a consumer position). Offsets below a partition's first row are kept: the
   * planner reports them as data loss.
   *
   * @throws IllegalArgumentException when the JSON form names a queue the query does not read,
   *     leaves out one of its partitions, or names a partition or an offset beyond the queue
   */
  public static StreamOffsets resolve(StartingOffsets starting, QueueBounds bounds) {
    return resolve(starting, bounds, "starting_offsets");
  }

  /**
   * As {@link #resolve(StartingOffsets, QueueBounds)}, for the option named {@code option} (a
   * static read's {@code ending_offsets} has the same forms), which the errors name.
   *
   * @throws IllegalArgumentException also for {@link StartingOffsets.AtTimestamp}: the caller finds
   *     the rows of a time and passes their offsets
   */
  public static StreamOffsets resolve(StartingOffsets starting, QueueBounds bounds, String option) {
    if (starting instanceof StartingOffsets.AtTimestamp) {
      throw new IllegalArgumentException(
          "a start by time is resolved into offsets by reading the queue, not here");
    }
    StreamOffsets.Builder start = StreamOffsets.builder(bounds.size());
    Map<YPath, Map<Integer, Long>> specific =
        starting instanceof StartingOffsets.Specific s ? s.offsets() : Map.of();
    TreeSet<YPath> read = new TreeSet<>();
    for (int i = 0; i < bounds.size(); i++) {
      read.add(bounds.partitionAt(i).queue().path());
    }
    for (YPath named : specific.keySet()) {
      if (!read.contains(named)) {
        throw new IllegalArgumentException(
            "option "
                + option
                + " names "
                + named
                + ", which this query does not read (it reads "
                + read
                + "): name the queues given to load()");
      }
    }
    for (int i = 0; i < bounds.size(); i++) {
      PartitionId partition = bounds.partitionAt(i);
      PartitionBounds b = bounds.boundsAt(i);
      long offset;
      if (starting instanceof StartingOffsets.Earliest) {
        offset = b.trimmedRowCount();
      } else if (starting instanceof StartingOffsets.Latest) {
        offset = b.totalRowCount();
      } else {
        Map<Integer, Long> ofQueue = specific.get(partition.queue().path());
        Long given = ofQueue == null ? null : ofQueue.get(partition.index());
        if (given == null) {
          throw new IllegalArgumentException(
              "option "
                  + option
                  + " has no offset for "
                  + partition.queue().path()
                  + " partition "
                  + partition.index()
                  + ": give every partition of every queue read (-2 for earliest, -1 for latest),"
                  + " or use earliest or latest");
        }
        offset =
            given == StartingOffsets.EARLIEST
                ? b.trimmedRowCount()
                : given == StartingOffsets.LATEST ? b.totalRowCount() : given;
        if (offset > b.totalRowCount()) {
          throw new IllegalArgumentException(
              "option "
                  + option
                  + (option.startsWith("ending") ? " ends " : " starts ")
                  + partition.queue().path()
                  + " partition "
                  + partition.index()
                  + " at "
                  + offset
                  + ", beyond its end ("
                  + b.totalRowCount()
                  + " rows): give an offset up to the end, or -1 for latest");
        }
      }
      start.add(partition, offset);
    }
    for (Map.Entry<YPath, Map<Integer, Long>> q : specific.entrySet()) {
      int partitions = 0;
      for (int i = 0; i < bounds.size(); i++) {
        if (bounds.partitionAt(i).queue().path().equals(q.getKey())) {
          partitions++;
        }
      }
      for (int index : q.getValue().keySet()) {
        if (index >= partitions) {
          throw new IllegalArgumentException(
              "option "
                  + option
                  + " names "
                  + q.getKey()
                  + " partition "
                  + index
                  + ", but the queue has "
                  + partitions
                  + " partitions (0.."
                  + (partitions - 1)
                  + ")");
        }
      }
    }
    return start.build();
  }
}
