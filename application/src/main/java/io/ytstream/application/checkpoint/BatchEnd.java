package io.ytstream.application.checkpoint;

import io.ytstream.core.model.StreamOffsets;
import java.util.Objects;

/** A batch of the offset log and the end offsets of the partitions it reads rows from. */
public record BatchEnd(long batchId, StreamOffsets offsets) {
  public BatchEnd {
    Objects.requireNonNull(offsets, "offsets");
  }
}
