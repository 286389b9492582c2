package io.ytstream.ports;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import java.util.OptionalLong;

/**
 * The offsets a consumer stores for a queue, read and advanced outside any batch transaction.
 *
 * <p>{@link #read} returns the committed offset of every partition that has a row; a missing row
 * means offset 0 (callers apply that default). {@link #advance} runs in a transaction of its own
 * and, when {@code oldOffset} is given, fails with code 3100 if the stored offset (missing = 0)
 * differs: that compare-and-set is the fence against replays and zombie drivers. Backward moves are
 * allowed by YTsaurus; the core never asks for one.
 */
public interface ConsumerOffsets {

  StreamOffsets read(ConsumerId consumer, QueueId queue);

  void advance(ConsumerId consumer, PartitionId partition, OptionalLong oldOffset, long newOffset);
}
