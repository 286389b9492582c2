package io.ytstream.core.model;

import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.SortedMap;

/**
 * Offsets of every partition of every queue a stream reads. Each value is an offset in the YTsaurus
 * consumer sense: the index of the first row not yet processed (never "last row read"). Iteration
 * order is defined: queues by (cluster, path), partitions by index.
 *
 * <p>Held as two parallel arrays sorted by partition, so that the driver's per-batch work (resolve,
 * plan, write {@code offsets/N}) is a few linear passes over 10,000 partitions rather than tree
 * look-ups: read them by position ({@link #partitionAt}, {@link #offsetAt}), merge with a {@link
 * Cursor}, and build new ones in order with a {@link Builder}. {@link #asMap} is a read-only view.
 */
public final class StreamOffsets {

  private static final PartitionId[] NO_PARTITIONS = new PartitionId[0];
  private static final StreamOffsets EMPTY = new StreamOffsets(NO_PARTITIONS, new long[0]);

  /** Strictly ascending; never changed after construction. */
  private final PartitionId[] partitions;

  private final long[] offsets;

  /** Created on first use; its fields are final, so publishing it racily is safe. */
  private SortedMap<PartitionId, Long> view;

  private StreamOffsets(PartitionId[] partitions, long[] offsets) {
    this.partitions = partitions;
    this.offsets = offsets;
  }

  public static StreamOffsets empty() {
    return EMPTY;
  }

  /** Builds offsets from a map; values must be >= 0. */
  public static StreamOffsets of(Map<PartitionId, Long> offsets) {
    int n = offsets.size();
    PartitionId[] keys = new PartitionId[n];
    long[] values = new long[n];
    PartitionOrder order = new PartitionOrder();
    boolean ascending = true;
    int i = 0;
    for (Map.Entry<PartitionId, Long> entry : offsets.entrySet()) {
      PartitionId partition = Objects.requireNonNull(entry.getKey(), "partition");
      long offset = checkOffset(partition, entry.getValue());
      if (i == keys.length) {
        keys = Arrays.copyOf(keys, 2 * i + 1);
        values = Arrays.copyOf(values, 2 * i + 1);
      }
      ascending &= i == 0 || order.compare(keys[i - 1], partition) < 0;
      keys[i] = partition;
      values[i] = offset;
      i++;
    }
    return fromEntries(keys, values, i, ascending);
  }

  /** Offsets of one queue, partition index to offset. */
  public static StreamOffsets ofQueue(QueueId queue, Map<Integer, Long> byPartition) {
    int n = byPartition.size();
    PartitionId[] keys = new PartitionId[n];
    long[] values = new long[n];
    boolean ascending = true;
    int i = 0;
    for (Map.Entry<Integer, Long> entry : byPartition.entrySet()) {
      PartitionId partition = new PartitionId(queue, entry.getKey());
      long offset = checkOffset(partition, entry.getValue());
      if (i == keys.length) {
        keys = Arrays.copyOf(keys, 2 * i + 1);
        values = Arrays.copyOf(values, 2 * i + 1);
      }
      ascending &= i == 0 || keys[i - 1].index() < partition.index();
      keys[i] = partition;
      values[i] = offset;
      i++;
    }
    return fromEntries(keys, values, i, ascending);
  }

  /** Distinct partitions (a map's keys) with their offsets, sorted here unless already sorted. */
  private static StreamOffsets fromEntries(
      PartitionId[] keys, long[] values, int size, boolean ascending) {
    if (size == 0) {
      return EMPTY;
    }
    if (ascending) {
      return new StreamOffsets(
          size == keys.length ? keys : Arrays.copyOf(keys, size),
          size == values.length ? values : Arrays.copyOf(values, size));
    }
    Integer[] order = new Integer[size];
    for (int i = 0; i < size; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> keys[a].compareTo(keys[b]));
    PartitionId[] sortedKeys = new PartitionId[size];
    long[] sortedValues = new long[size];
    for (int i = 0; i < size; i++) {
      sortedKeys[i] = keys[order[i]];
      sortedValues[i] = values[order[i]];
    }
    return new StreamOffsets(sortedKeys, sortedValues);
  }

  /** A builder that takes partitions in ascending order, for offsets computed by a merge. */
  public static Builder builder(int expectedSize) {
    return new Builder(expectedSize);
  }

  private static long checkOffset(PartitionId partition, Long offset) {
    if (offset == null || offset < 0) {
      throw new IllegalArgumentException(
          "offset of " + partition + " must be >= 0 (first unprocessed row), got " + offset);
    }
    return offset;
  }

  private static void checkOffset(PartitionId partition, long offset) {
    if (offset < 0) {
      throw new IllegalArgumentException(
          "offset of " + partition + " must be >= 0 (first unprocessed row), got " + offset);
    }
  }

  /** The partition at {@code position} ({@code 0 <= position < size()}), in partition order. */
  public PartitionId partitionAt(int position) {
    return partitions[position];
  }

  /** The offset of {@link #partitionAt partitionAt(position)}. */
  public long offsetAt(int position) {
    return offsets[position];
  }

  /** A reader for partitions asked in ascending order, each step O(1) amortized. */
  public Cursor cursor() {
    return new Cursor();
  }

  private int indexOf(PartitionId partition) {
    return SortedPartitionMap.search(partitions, 0, partitions.length, partition);
  }

  public OptionalLong get(PartitionId partition) {
    int i = indexOf(partition);
    return i >= 0 ? OptionalLong.of(offsets[i]) : OptionalLong.empty();
  }

  /** The offset of {@code partition}, or {@code defaultValue} when absent. */
  public long getOrDefault(PartitionId partition, long defaultValue) {
    int i = indexOf(partition);
    return i >= 0 ? offsets[i] : defaultValue;
  }

  public StreamOffsets with(PartitionId partition, long offset) {
    checkOffset(partition, offset);
    int i = indexOf(partition);
    if (i >= 0) {
      long[] values = offsets.clone();
      values[i] = offset;
      return new StreamOffsets(partitions, values);
    }
    int at = -i - 1;
    int n = partitions.length;
    PartitionId[] keys = new PartitionId[n + 1];
    long[] values = new long[n + 1];
    System.arraycopy(partitions, 0, keys, 0, at);
    System.arraycopy(offsets, 0, values, 0, at);
    keys[at] = partition;
    values[at] = offset;
    System.arraycopy(partitions, at, keys, at + 1, n - at);
    System.arraycopy(offsets, at, values, at + 1, n - at);
    return new StreamOffsets(keys, values);
  }

  /** These offsets overlaid with {@code other}'s (other wins where both have a partition). */
  public StreamOffsets overlay(StreamOffsets other) {
    if (other.isEmpty()) {
      return this;
    }
    if (isEmpty()) {
      return other;
    }
    Builder out = new Builder(partitions.length + other.partitions.length);
    PartitionOrder order = new PartitionOrder();
    int i = 0;
    int j = 0;
    while (i < partitions.length || j < other.partitions.length) {
      int c =
          i == partitions.length
              ? 1
              : j == other.partitions.length
                  ? -1
                  : order.compare(partitions[i], other.partitions[j]);
      if (c < 0) {
        out.append(partitions[i], offsets[i]);
        i++;
      } else {
        out.append(other.partitions[j], other.offsets[j]);
        j++;
        if (c == 0) {
          i++;
        }
      }
    }
    return out.build();
  }

  /** The offsets of one queue only. */
  public StreamOffsets forQueue(QueueId queue) {
    int first = -1;
    int end = partitions.length;
    for (int i = 0; i < partitions.length; i++) {
      boolean same = partitions[i].queue().equals(queue);
      if (same && first < 0) {
        first = i;
      } else if (!same && first >= 0) {
        end = i;
        break;
      }
    }
    if (first < 0) {
      return EMPTY;
    }
    if (first == 0 && end == partitions.length) {
      return this;
    }
    return new StreamOffsets(
        Arrays.copyOfRange(partitions, first, end), Arrays.copyOfRange(offsets, first, end));
  }

  /** Partition to offset, in partition order: a read-only view. */
  public SortedMap<PartitionId, Long> asMap() {
    SortedMap<PartitionId, Long> map = view;
    if (map == null) {
      long[] values = offsets;
      map = SortedPartitionMap.over(partitions, i -> values[i]);
      view = map;
    }
    return map;
  }

  public boolean isEmpty() {
    return partitions.length == 0;
  }

  public int size() {
    return partitions.length;
  }

  /** Sum of all offsets: a cheap progress measure for logs and metrics. */
  public long total() {
    long sum = 0;
    for (long offset : offsets) {
      sum += offset;
    }
    return sum;
  }

  /**
   * True when every partition here is at or beyond its offset in {@code other} (a partition missing
   * from this map counts as 0).
   */
  public boolean isAtOrAfter(StreamOffsets other) {
    Cursor mine = cursor();
    for (int i = 0; i < other.partitions.length; i++) {
      if (mine.getOrDefault(other.partitions[i], 0) < other.offsets[i]) {
        return false;
      }
    }
    return true;
  }

  @Override
  @SuppressWarnings("ReferenceEquality") // identity first, equals when the objects differ
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof StreamOffsets other)
        || partitions.length != other.partitions.length
        || !Arrays.equals(offsets, other.offsets)) {
      return false;
    }
    for (int i = 0; i < partitions.length; i++) {
      if (partitions[i] != other.partitions[i] && !partitions[i].equals(other.partitions[i])) {
        return false;
      }
    }
    return true;
  }

  /** As the map form's hash code (the sum of each entry's key hash XOR value hash). */
  @Override
  public int hashCode() {
    int hash = 0;
    for (int i = 0; i < partitions.length; i++) {
      hash += partitions[i].hashCode() ^ Long.hashCode(offsets[i]);
    }
    return hash;
  }

  /** As the map form's: {@code {a://q#0=42, a://q#1=7}}. The wire form is not core's concern. */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder(16 + partitions.length * 24).append('{');
    for (int i = 0; i < partitions.length; i++) {
      if (i > 0) {
        out.append(", ");
      }
      out.append(partitions[i]).append('=').append(offsets[i]);
    }
    return out.append('}').toString();
  }

  /**
   * Reads offsets for partitions asked in ascending order (the order of another {@link
   * StreamOffsets}, of {@code QueueBounds} or of a plan's ranges): a merge step instead of a search
   * per partition. Asking out of order is allowed and falls back to a binary search.
   */
  public final class Cursor {

    private final PartitionOrder order = new PartitionOrder();
    private int next;

    private Cursor() {}

    /** The position of {@code partition}, or -1 when these offsets do not have it. */
    public int find(PartitionId partition) {
      if (next > 0) {
        int c = order.compare(partitions[next - 1], partition);
        if (c == 0) {
          return next - 1;
        }
        if (c > 0) {
          int i = SortedPartitionMap.search(partitions, 0, next - 1, partition);
          if (i >= 0) {
            next = i + 1;
            return i;
          }
          next = -i - 1;
          return -1;
        }
      }
      while (next < partitions.length) {
        int c = order.compare(partitions[next], partition);
        if (c < 0) {
          next++;
        } else if (c == 0) {
          return next++;
        } else {
          return -1;
        }
      }
      return -1;
    }

    /** The offset of {@code partition}, or {@code defaultValue} when absent. */
    public long getOrDefault(PartitionId partition, long defaultValue) {
      int i = find(partition);
      return i >= 0 ? offsets[i] : defaultValue;
    }
  }

  /**
   * Collects partitions in strictly ascending order with their offsets, then hands out the result
   * without sorting: what a merge of sorted inputs produces.
   */
  public static final class Builder {

    private final PartitionOrder order = new PartitionOrder();
    private PartitionId[] partitions;
    private long[] offsets;
    private int size;

    private Builder(int expectedSize) {
      int capacity = Math.max(0, expectedSize);
      partitions = capacity == 0 ? NO_PARTITIONS : new PartitionId[capacity];
      offsets = new long[capacity];
    }

    /**
     * Adds the next partition.
     *
     * @throws IllegalArgumentException when {@code offset} is negative or {@code partition} does
     *     not come after the previous one
     */
    public Builder add(PartitionId partition, long offset) {
      Objects.requireNonNull(partition, "partition");
      checkOffset(partition, offset);
      if (size > 0 && order.compare(partitions[size - 1], partition) >= 0) {
        throw new IllegalArgumentException(
            "partitions must be added in ascending order without repeats: "
                + partition
                + " after "
                + partitions[size - 1]);
      }
      append(partition, offset);
      return this;
    }

    /** Adds a partition the caller knows to be valid and in order (a merge of checked inputs). */
    private void append(PartitionId partition, long offset) {
      if (partitions == null) {
        throw new IllegalStateException("build() was called already");
      }
      if (size == partitions.length) {
        int capacity = Math.max(8, 2 * size);
        partitions = Arrays.copyOf(partitions, capacity);
        offsets = Arrays.copyOf(offsets, capacity);
      }
      partitions[size] = partition;
      offsets[size] = offset;
      size++;
    }

    public StreamOffsets build() {
      if (partitions == null) {
        throw new IllegalStateException("build() was called already");
      }
      StreamOffsets result =
          size == 0
              ? EMPTY
              : new StreamOffsets(
                  size == partitions.length ? partitions : Arrays.copyOf(partitions, size),
                  size == offsets.length ? offsets : Arrays.copyOf(offsets, size));
      partitions = null;
      offsets = null;
      return result;
    }
  }
}
