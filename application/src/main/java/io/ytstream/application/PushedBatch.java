package io.ytstream.application;

import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.core.model.StreamOffsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a producer session's {@code user_meta} records about the last share pushed through it: the
 * batch, its rows, the query and task partition, and the source's end offsets of that batch (as
 * Kafka's {@code sendOffsetsToTransaction} ties offsets to output). A restarted query reads it when
 * it opens the session, so it knows which batch the session holds without the checkpoint.
 *
 * @param sourceEnd the end offsets of the batch's yt sources, empty when the sink did not know them
 */
public record PushedBatch(
    long batchId,
    long rowCount,
    String queryId,
    int taskPartition,
    Optional<StreamOffsets> sourceEnd) {

  static final String BATCH_ID = "batch_id";
  static final String ROW_COUNT = "row_count";
  static final String QUERY_ID = "query_id";
  static final String TASK_PARTITION = "task_partition";
  static final String SOURCE_END = "source_end_offsets";

  public PushedBatch {
    sourceEnd = sourceEnd == null ? Optional.empty() : sourceEnd;
  }

  /** The session's user_meta: a YSON map of int64s and strings, the offsets as their JSON. */
  Map<String, Object> toUserMeta() {
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put(BATCH_ID, batchId);
    meta.put(ROW_COUNT, rowCount);
    meta.put(QUERY_ID, queryId);
    meta.put(TASK_PARTITION, (long) taskPartition);
    sourceEnd.ifPresent(end -> meta.put(SOURCE_END, OffsetsJson.write(end)));
    return meta;
  }

  /** The record in a session's user_meta, if it holds one this sink wrote. */
  static Optional<PushedBatch> fromUserMeta(Optional<Object> userMeta) {
    if (userMeta.isEmpty() || !(userMeta.get() instanceof Map<?, ?> meta)) {
      return Optional.empty();
    }
    if (!(meta.get(BATCH_ID) instanceof Number batch)
        || !(meta.get(ROW_COUNT) instanceof Number rows)
        || !(meta.get(QUERY_ID) instanceof String query)
        || !(meta.get(TASK_PARTITION) instanceof Number partition)) {
      return Optional.empty();
    }
    Optional<StreamOffsets> end = Optional.empty();
    if (meta.get(SOURCE_END) instanceof String json) {
      try {
        end = Optional.of(OffsetsJson.parse(json));
      } catch (IllegalArgumentException e) {
        // Not ours to judge: the record stands without its offsets.
        end = Optional.empty();
      }
    }
    return Optional.of(
        new PushedBatch(batch.longValue(), rows.longValue(), query, partition.intValue(), end));
  }
}
