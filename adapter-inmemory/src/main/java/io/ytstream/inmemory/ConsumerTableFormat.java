package io.ytstream.inmemory;

import com.google.common.collect.ImmutableList;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.util.List;
import java.util.Optional;

/**
 * The consumer table format (HTTP API reference, section 1.4): rows keyed by {@code (queue_cluster,
 * queue_path, partition_index)} holding {@code offset}, the first unprocessed row.
 */
final class ConsumerTableFormat {

  static final String QUEUE_CLUSTER = "queue_cluster";
  static final String QUEUE_PATH = "queue_path";
  static final String PARTITION_INDEX = "partition_index";
  static final String OFFSET = "offset";
  static final String META = "meta";

  static final ImmutableList<Column> SCHEMA =
      ImmutableList.of(
          new Column(QUEUE_CLUSTER, "string", true, true),
          new Column(QUEUE_PATH, "string", true, true),
          new Column(PARTITION_INDEX, "uint64", true, true),
          new Column(OFFSET, "uint64", false, true),
          new Column(META, "any", false, false));

  /** Checked once: a schema is immutable, and every consumer has this one. */
  static final StoredSchema TABLE_SCHEMA = StoredSchema.sorted(SCHEMA);

  private ConsumerTableFormat() {}

  static RowKey key(PartitionId partition) {
    return RowKey.of(
        partition.queue().cluster(), partition.queue().path().value(), (long) partition.index());
  }

  /** The row an advance writes; {@code meta} is left null (see the package notes). */
  static Row row(PartitionId partition, long offset) {
    return Row.of(
        QUEUE_CLUSTER,
        partition.queue().cluster(),
        QUEUE_PATH,
        partition.queue().path().value(),
        PARTITION_INDEX,
        (long) partition.index(),
        OFFSET,
        offset,
        META,
        null);
  }

  /** The stored offset of every partition of {@code queue} as of {@code timestamp}. */
  static StreamOffsets read(SortedTable consumer, QueueId queue, long timestamp) {
    List<Row> rows =
        consumer.readPrefixAt(List.of(queue.cluster(), queue.path().value()), timestamp);
    // Key order is partition order here: the prefix fixes the queue, partition_index comes next.
    StreamOffsets.Builder offsets = StreamOffsets.builder(rows.size());
    for (Row row : rows) {
      Long offset = (Long) row.get(OFFSET);
      offsets.add(
          new PartitionId(queue, Math.toIntExact((Long) row.get(PARTITION_INDEX))),
          offset == null ? 0 : offset);
    }
    return offsets.build();
  }

  /** A missing row, or a null offset, means 0. */
  static long offsetOf(Optional<Row> row) {
    return row.map(r -> (Long) r.get(OFFSET)).orElse(0L);
  }
}
