package io.ytstream.core.model;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Offsets of every partition of every queue a stream reads. Each value is an offset in the YTsaurus
 * consumer sense: the index of the first row not yet processed (never "last row read"). Iteration
 * order is defined: queues by (cluster, path), partitions by index.
 */
public final class StreamOffsets {

  private static final StreamOffsets EMPTY = new StreamOffsets(new TreeMap<>());

  private final SortedMap<PartitionId, Long> offsets;

  private StreamOffsets(SortedMap<PartitionId, Long> offsets) {
    this.offsets = Collections.unmodifiableSortedMap(offsets);
  }

  public static StreamOffsets empty() {
    return EMPTY;
  }

  /** Builds offsets from a map; values must be >= 0. */
  public static StreamOffsets of(Map<PartitionId, Long> offsets) {
    TreeMap<PartitionId, Long> copy = new TreeMap<>();
    offsets.forEach(
        (partition, offset) -> {
          Objects.requireNonNull(partition, "partition");
          copy.put(partition, checkOffset(partition, offset));
        });
    return new StreamOffsets(copy);
  }

  /** Offsets of one queue, partition index to offset. */
  public static StreamOffsets ofQueue(QueueId queue, Map<Integer, Long> byPartition) {
    TreeMap<PartitionId, Long> copy = new TreeMap<>();
    byPartition.forEach(
        (index, offset) -> {
          PartitionId partition = new PartitionId(queue, index);
          copy.put(partition, checkOffset(partition, offset));
        });
    return new StreamOffsets(copy);
  }

  private static long checkOffset(PartitionId partition, Long offset) {
    if (offset == null || offset < 0) {
      throw new IllegalArgumentException(
          "offset of " + partition + " must be >= 0 (first unprocessed row), got " + offset);
    }
    return offset;
  }

  public OptionalLong get(PartitionId partition) {
    Long value = offsets.get(partition);
    return value == null ? OptionalLong.empty() : OptionalLong.of(value);
  }

  /** The offset of {@code partition}, or {@code defaultValue} when absent. */
  public long getOrDefault(PartitionId partition, long defaultValue) {
    Long value = offsets.get(partition);
    return value == null ? defaultValue : value;
  }

  public StreamOffsets with(PartitionId partition, long offset) {
    TreeMap<PartitionId, Long> copy = new TreeMap<>(offsets);
    copy.put(partition, checkOffset(partition, offset));
    return new StreamOffsets(copy);
  }

  /** These offsets overlaid with {@code other}'s (other wins where both have a partition). */
  public StreamOffsets overlay(StreamOffsets other) {
    TreeMap<PartitionId, Long> copy = new TreeMap<>(offsets);
    copy.putAll(other.offsets);
    return new StreamOffsets(copy);
  }

  /** The offsets of one queue only. */
  public StreamOffsets forQueue(QueueId queue) {
    TreeMap<PartitionId, Long> copy = new TreeMap<>();
    offsets.forEach(
        (partition, offset) -> {
          if (partition.queue().equals(queue)) {
            copy.put(partition, offset);
          }
        });
    return new StreamOffsets(copy);
  }

  /** Partition to offset, in partition order. */
  public SortedMap<PartitionId, Long> asMap() {
    return offsets;
  }

  public boolean isEmpty() {
    return offsets.isEmpty();
  }

  public int size() {
    return offsets.size();
  }

  /** Sum of all offsets: a cheap progress measure for logs and metrics. */
  public long total() {
    long sum = 0;
    for (long offset : offsets.values()) {
      sum += offset;
    }
    return sum;
  }

  /**
   * True when every partition here is at or beyond its offset in {@code other} (a partition missing
   * from this map counts as 0).
   */
  public boolean isAtOrAfter(StreamOffsets other) {
    for (Map.Entry<PartitionId, Long> entry : other.offsets.entrySet()) {
      if (getOrDefault(entry.getKey(), 0) < entry.getValue()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StreamOffsets other && offsets.equals(other.offsets);
  }

  @Override
  public int hashCode() {
    return offsets.hashCode();
  }

  @Override
  public String toString() {
    return OffsetsJson.write(this);
  }
}
