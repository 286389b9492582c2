package io.ytstream.inmemory;

import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A sorted dynamic table with one tablet: rows by key, multi-versioned for snapshot reads. A
 * consumer is a sorted table with the consumer schema and {@code @treat_as_queue_consumer}; a queue
 * producer one with the session schema and {@code @treat_as_queue_producer}.
 */
final class SortedTable extends TableNode {

  private final boolean queueConsumer;
  private final boolean queueProducer;
  private final NavigableMap<RowKey, KeyVersions> rows = new TreeMap<>();
  private long lastWriteTimestamp = Long.MIN_VALUE;

  /** Keys whose newest version holds a row, kept current by {@link #write}. */
  private int liveRows;

  SortedTable(StoredSchema schema, boolean queueConsumer, long nowMillis) {
    this(schema, queueConsumer, false, nowMillis);
  }

  SortedTable(StoredSchema schema, boolean queueConsumer, boolean queueProducer, long nowMillis) {
    super(schema, nowMillis);
    this.queueConsumer = queueConsumer;
    this.queueProducer = queueProducer;
  }

  @Override
  int tabletCount() {
    return 1;
  }

  boolean isQueueConsumer() {
    return queueConsumer;
  }

  boolean isQueueProducer() {
    return queueProducer;
  }

  /** The commit timestamp of the newest version of {@code key}, or MIN_VALUE if never written. */
  long lastCommitTimestamp(RowKey key) {
    KeyVersions versions = rows.get(key);
    return versions == null ? Long.MIN_VALUE : versions.lastCommitTimestamp();
  }

  void write(RowKey key, Optional<Row> row, long commitTimestamp, long oldestReaderTimestamp) {
    lastWriteTimestamp = Math.max(lastWriteTimestamp, commitTimestamp);
    KeyVersions versions = rows.computeIfAbsent(key, k -> new KeyVersions());
    boolean wasLive = versions.latest().isPresent();
    versions.add(commitTimestamp, row, oldestReaderTimestamp);
    liveRows += (row.isPresent() ? 1 : 0) - (wasLive ? 1 : 0);
    if (versions.isDeadAfterPrune() && commitTimestamp <= oldestReaderTimestamp) {
      rows.remove(key);
    }
  }

  /** The row of {@code key} as of {@code timestamp}. */
  Optional<Row> readAt(RowKey key, long timestamp) {
    KeyVersions versions = rows.get(key);
    return versions == null ? Optional.empty() : versions.at(timestamp);
  }

  /** Rows whose key starts with {@code prefix}, in key order, as of {@code timestamp}. */
  List<Row> readPrefixAt(List<Object> prefix, long timestamp) {
    // A prefix sorts right before the keys that extend it, and those keys are contiguous.
    List<Row> result = new ArrayList<>();
    for (var entry : rows.tailMap(RowKey.of(prefix.toArray()), true).entrySet()) {
      if (!entry.getKey().startsWith(prefix)) {
        break;
      }
      entry.getValue().at(timestamp).ifPresent(result::add);
    }
    return result;
  }

  /** The commit timestamp of the newest write to any key, deletions included; MIN_VALUE if none. */
  long lastWriteTimestamp() {
    return lastWriteTimestamp;
  }

  /** The latest rows of the keys last written after {@code timestamp}, in key order. */
  List<Row> latestRowsCommittedAfter(long timestamp) {
    List<Row> result = new ArrayList<>();
    for (KeyVersions versions : rows.values()) {
      if (versions.lastCommitTimestamp() > timestamp) {
        versions.latest().ifPresent(result::add);
      }
    }
    return result;
  }

  /** How many keys hold a row now (deleted keys may linger until their versions are pruned). */
  int liveRowCount() {
    return liveRows;
  }

  /** The latest committed rows in key order. */
  List<Row> readAllLatest() {
    List<Row> result = new ArrayList<>();
    rows.values().forEach(versions -> versions.latest().ifPresent(result::add));
    return result;
  }
}
