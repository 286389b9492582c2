package io.ytstream.ports;

import io.ytstream.core.model.PartitionId;
import java.util.List;

/**
 * Reads rows of one queue partition without a consumer ({@code pull_queue}): what a static read of
 * a range and a search by time need, where no consumer is registered or moved.
 *
 * <p>The semantics are {@link QueuePartitionReader}'s without the consumer: rows with {@code
 * $row_index >= max(offset, trimmed_row_count)}, in row order, at most {@code maxRows}; a short
 * read is not the end, only an empty one is; a trimmed offset silently starts at the first row
 * left; a negative offset is an {@link IllegalArgumentException}.
 */
public interface QueueRangeReader {

  List<QueueRow> pull(PartitionId partition, long offset, int maxRows);
}
