package io.ytstream.ports;

import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.QueueId;
import java.util.List;

/**
 * Partition metadata of a queue ({@code @tablet_count} and {@code get_tablet_infos}).
 *
 * <p>Returns one entry per partition, index {@code 0..n-1} in order. {@code totalRowCount} is the
 * exclusive end of the rows committed so far; {@code trimmedRowCount} the first readable row. The
 * tablet count may grow between calls (resharding adds partitions); it never shrinks.
 */
public interface QueueMetadata {

  List<PartitionBounds> partitions(QueueId queue);
}
