package io.ytstream.core.commit;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
    for (Map.Entry<PartitionId, Long> entry : durableEnd.asMap().entrySet()) {
      long current = consumer.getOrDefault(entry.getKey(), 0);
      if (current < entry.getValue()) {
        advances.add(new ConsumerAdvance(entry.getKey(), current, entry.getValue()));
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
    for (Map.Entry<PartitionId, Long> entry : consumer.asMap().entrySet()) {
      if (durableEnd.get(entry.getKey()).isPresent()
          && entry.getValue() > durableEnd.getOrDefault(entry.getKey(), 0)) {
        ahead.add(entry.getKey());
      }
    }
    return ahead;
  }
}
