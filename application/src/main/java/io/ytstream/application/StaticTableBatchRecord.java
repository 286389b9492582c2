package io.ytstream.application;

import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.core.model.StreamOffsets;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The attribute a static table sink keeps on its output, {@code @ytstream_batches}: for each query
 * (the checkpoint's query id) the last batch committed into the table and that batch's end offsets
 * (the offsets JSON of {@code offsets/N}), so the table says how far its content reaches in the
 * queues. It is set in the master transaction that holds the batch's rows, so the two land
 * together. Other queries' entries are kept as they are.
 */
public final class StaticTableBatchRecord {

  /** The attribute's name. */
  public static final String ATTRIBUTE = "ytstream_batches";

  static final String BATCH = "batch";
  static final String END = "end";

  private final Map<String, Object> byQuery;

  private StaticTableBatchRecord(Map<String, Object> byQuery) {
    this.byQuery = byQuery;
  }

  /**
   * The record in an attribute's value (none: an empty record).
   *
   * @throws IllegalStateException when the attribute is not a map, naming it and the fix
   */
  public static StaticTableBatchRecord of(Optional<Object> attribute, String table) {
    if (attribute.isEmpty()) {
      return new StaticTableBatchRecord(new TreeMap<>());
    }
    if (!(attribute.get() instanceof Map<?, ?> map)) {
      throw damaged(table, "is not a map of query ids");
    }
    Map<String, Object> copy = new TreeMap<>();
    map.forEach((k, v) -> copy.put(String.valueOf(k), v));
    return new StaticTableBatchRecord(copy);
  }

  /** The last batch recorded for {@code queryId}. */
  public OptionalLong lastBatch(String queryId, String table) {
    Object entry = byQuery.get(queryId);
    if (entry == null) {
      return OptionalLong.empty();
    }
    if (entry instanceof Map<?, ?> m && m.get(BATCH) instanceof Number n) {
      return OptionalLong.of(n.longValue());
    }
    throw damaged(table, "has an entry for query " + queryId + " without a batch number");
  }

  /** The attribute's value with {@code queryId}'s entry set to batch {@code batchId}. */
  public Map<String, Object> with(String queryId, long batchId, StreamOffsets end) {
    Objects.requireNonNull(queryId, "queryId");
    Map<String, Object> entry = new TreeMap<>();
    entry.put(BATCH, batchId);
    entry.put(END, OffsetsJson.write(end));
    Map<String, Object> value = new TreeMap<>(byQuery);
    value.put(queryId, entry);
    return value;
  }

  private static IllegalStateException damaged(String table, String what) {
    return new IllegalStateException(
        "attribute @"
            + ATTRIBUTE
            + " of "
            + table
            + " "
            + what
            + ": it records which batches of each streaming query are in the table, and ytstream"
            + " cannot tell from it whether a batch landed. Restore it, or remove it together with"
            + " the rows of the queries it names and start those queries with new checkpoints");
  }
}
