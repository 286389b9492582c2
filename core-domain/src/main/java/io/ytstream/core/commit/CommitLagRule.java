package io.ytstream.core.commit;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import java.util.ArrayList;
import java.util.List;

/**
 * When and how far the consumer may move outside a batch transaction.
 *
 * <ul>
 *   <li><b>Never ahead.</b> The consumer is advanced only to offsets whose rows the sink has
 *       durably written: the end of the last batch with a {@code commits/N} entry.
 *   <li><b>Brought level.</b> Every time the driver plans (also when the queue is idle and no batch
 *       runs), each partition behind that end is advanced to it, so the consumer does not lag the
 *       checkpoint by a batch (the known SPYT weakness).
 *   <li><b>Fenced.</b> Each advance carries the consumer's current offset as {@code old_offset}.
 * </ul>
 */
public final class CommitLagRule {

  private CommitLagRule() {}

  /**
   * The advances that bring the consumer level with {@code durableEnd}, in partition order.
   * Partitions already at or beyond it are left alone (see {@link #partitionsAhead}).
   */
  public static List<ConsumerAdvance> catchUp(StreamOffsets durableEnd, StreamOffsets consumer) {
    List<ConsumerAdvance> advances = new ArrayList<>();
    StreamOffsets.Cursor consumerAt = consumer.cursor();
    for (int i = 0; i < durableEnd.size(); i++) {
      PartitionId partition = durableEnd.partitionAt(i);
      long current = consumerAt.getOrDefault(partition, 0);
      if (current < durableEnd.offsetAt(i)) {
        advances.add(new ConsumerAdvance(partition, current, durableEnd.offsetAt(i)));
      }
    }
    return advances;
  }

  /**
   * Partitions where the consumer is beyond what the sink durably wrote. In at-least-once and
   * idempotent modes this means another writer moved the consumer; in transactional mode it is
   * expected after a crash between the transaction commit and {@code commits/N}.
   */
  public static List<PartitionId> partitionsAhead(
      StreamOffsets durableEnd, StreamOffsets consumer) {
    List<PartitionId> ahead = new ArrayList<>();
    StreamOffsets.Cursor durableAt = durableEnd.cursor();
    for (int i = 0; i < consumer.size(); i++) {
      int at = durableAt.find(consumer.partitionAt(i));
      if (at >= 0 && consumer.offsetAt(i) > durableEnd.offsetAt(at)) {
        ahead.add(consumer.partitionAt(i));
      }
    }
    return ahead;
  }
}
