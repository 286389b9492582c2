package io.ytstream.core.commit;

import io.ytstream.core.model.PartitionId;
import java.util.Objects;

/** Move a consumer's offset for one partition from {@code oldOffset} to {@code newOffset}. */
public record ConsumerAdvance(PartitionId partition, long oldOffset, long newOffset) {

  public ConsumerAdvance {
    Objects.requireNonNull(partition, "partition");
    if (oldOffset < 0 || newOffset <= oldOffset) {
      throw new IllegalArgumentException(
          "an advance of "
              + partition
              + " must move forward, got "
              + oldOffset
              + " -> "
              + newOffset);
    }
  }
}
