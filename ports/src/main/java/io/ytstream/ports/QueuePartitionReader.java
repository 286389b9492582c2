package io.ytstream.ports;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import java.util.List;

/**
 * Reads rows of one queue partition through a registered consumer ({@code pull_queue_consumer}).
 *
 * <p>Semantics the core relies on:
 *
 * <ul>
 *   <li>Returns rows with {@code $row_index >= max(offset, trimmed_row_count)}, in row order, at
 *       most {@code maxRows} of them. A <em>short</em> read (fewer rows than asked, not empty) does
 *       not mean the end of the partition; only an empty list does.
 *   <li>A trimmed {@code offset} is <em>not</em> an error: the read silently starts at the first
 *       surviving row. Callers detect data loss by comparing the first {@code rowIndex} with the
 *       offset they asked for, and check that row indexes are contiguous.
 *   <li>Fails with code 901 when the consumer is not registered for the queue; a negative offset is
 *       an {@link IllegalArgumentException}.
 * </ul>
 */
public interface QueuePartitionReader {

  List<QueueRow> pull(ConsumerId consumer, PartitionId partition, long offset, int maxRows);

  /**
   * As {@link #pull}, for a caller that wants text as bytes: a {@code string} or {@code utf8}
   * column's value may be its UTF-8 {@code byte[]} or a {@link TextSlice} of the answer instead of
   * a {@link String} (all are values of these types). An adapter that receives text as bytes skips
   * decoding and copying it; the default hands {@link String}s as {@link #pull} does.
   */
  default List<QueueRow> pullKeepingTextBytes(
      ConsumerId consumer, PartitionId partition, long offset, int maxRows) {
    return pull(consumer, partition, offset, maxRows);
  }

  /**
   * As {@link #pullKeepingTextBytes}, the same rows as one {@link QueueRowBatch}, for a caller that
   * walks them by index: an adapter may then hold the answer flat. The default wraps {@link
   * #pullKeepingTextBytes}'s list.
   */
  default QueueRowBatch pullBatchKeepingTextBytes(
      ConsumerId consumer, PartitionId partition, long offset, int maxRows) {
    return QueueRowBatch.of(pullKeepingTextBytes(consumer, partition, offset, maxRows));
  }
}
