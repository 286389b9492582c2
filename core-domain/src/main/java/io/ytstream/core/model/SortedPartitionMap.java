package io.ytstream.core.model;

import java.util.AbstractCollection;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SortedMap;
import java.util.function.BiConsumer;
import java.util.function.IntFunction;

/**
 * An unmodifiable {@link SortedMap} view of partitions kept in a sorted array, with the value of
 * each position supplied by the owner. {@link StreamOffsets} and {@code QueueBounds} hold flat
 * arrays (the planner's hot path never builds a tree) and hand this view out as their map form.
 * Keys are in natural order ({@link #comparator()} is null); look-ups are binary searches.
 *
 * @param <V> the value type
 */
@SuppressWarnings("JdkObsolete") // SortedMap is what asMap() has always returned
public final class SortedPartitionMap<V> extends AbstractMap<PartitionId, V>
    implements SortedMap<PartitionId, V> {

  private final PartitionId[] keys;
  private final IntFunction<V> valueAt;
  private final int from;
  private final int to;

  private SortedPartitionMap(PartitionId[] keys, IntFunction<V> valueAt, int from, int to) {
    this.keys = keys;
    this.valueAt = valueAt;
    this.from = from;
    this.to = to;
  }

  /**
   * A view of {@code sortedKeys}, whose i-th value is {@code valueAt.apply(i)}. The caller keeps
   * the array strictly ascending and never changes it afterwards.
   */
  public static <V> SortedPartitionMap<V> over(PartitionId[] sortedKeys, IntFunction<V> valueAt) {
    return new SortedPartitionMap<>(sortedKeys, valueAt, 0, sortedKeys.length);
  }

  /** The position of {@code key} in the whole array, or {@code -(insertion point) - 1}. */
  static int search(PartitionId[] keys, int from, int to, PartitionId key) {
    int low = from;
    int high = to - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      int c = keys[mid].compareTo(key);
      if (c < 0) {
        low = mid + 1;
      } else if (c > 0) {
        high = mid - 1;
      } else {
        return mid;
      }
    }
    return -(low + 1);
  }

  private int indexOf(Object key) {
    if (!(key instanceof PartitionId partition)) {
      return -1;
    }
    int i = search(keys, from, to, partition);
    return i >= 0 ? i : -1;
  }

  /** The first position in this view whose key is at or after {@code key}. */
  private int lowerBound(PartitionId key) {
    int i = search(keys, from, to, key);
    return i >= 0 ? i : -i - 1;
  }

  @Override
  public int size() {
    return to - from;
  }

  @Override
  public boolean isEmpty() {
    return to == from;
  }

  @Override
  public boolean containsKey(Object key) {
    return indexOf(key) >= 0;
  }

  @Override
  public V get(Object key) {
    int i = indexOf(key);
    return i >= 0 ? valueAt.apply(i) : null;
  }

  @Override
  public void forEach(BiConsumer<? super PartitionId, ? super V> action) {
    for (int i = from; i < to; i++) {
      action.accept(keys[i], valueAt.apply(i));
    }
  }

  @Override
  public Comparator<? super PartitionId> comparator() {
    return null;
  }

  /** Keys in {@code [fromKey, toKey)}; unlike a TreeMap's, bounds outside this view are clamped. */
  @Override
  public SortedMap<PartitionId, V> subMap(PartitionId fromKey, PartitionId toKey) {
    if (fromKey.compareTo(toKey) > 0) {
      throw new IllegalArgumentException("fromKey " + fromKey + " > toKey " + toKey);
    }
    return new SortedPartitionMap<>(keys, valueAt, lowerBound(fromKey), lowerBound(toKey));
  }

  @Override
  public SortedMap<PartitionId, V> headMap(PartitionId toKey) {
    return new SortedPartitionMap<>(keys, valueAt, from, lowerBound(toKey));
  }

  @Override
  public SortedMap<PartitionId, V> tailMap(PartitionId fromKey) {
    return new SortedPartitionMap<>(keys, valueAt, lowerBound(fromKey), to);
  }

  @Override
  public PartitionId firstKey() {
    if (isEmpty()) {
      throw new NoSuchElementException();
    }
    return keys[from];
  }

  @Override
  public PartitionId lastKey() {
    if (isEmpty()) {
      throw new NoSuchElementException();
    }
    return keys[to - 1];
  }

  @Override
  public Set<PartitionId> keySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<PartitionId> iterator() {
        return new Positions<>(i -> keys[i]);
      }

      @Override
      public int size() {
        return to - from;
      }

      @Override
      public boolean contains(Object o) {
        return containsKey(o);
      }
    };
  }

  @Override
  public Collection<V> values() {
    return new AbstractCollection<>() {
      @Override
      public Iterator<V> iterator() {
        return new Positions<>(valueAt);
      }

      @Override
      public int size() {
        return to - from;
      }
    };
  }

  @Override
  public Set<Map.Entry<PartitionId, V>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Map.Entry<PartitionId, V>> iterator() {
        return new Positions<>(i -> new SimpleImmutableEntry<>(keys[i], valueAt.apply(i)));
      }

      @Override
      public int size() {
        return to - from;
      }

      @Override
      public boolean contains(Object o) {
        if (!(o instanceof Map.Entry<?, ?> entry)) {
          return false;
        }
        int i = indexOf(entry.getKey());
        return i >= 0 && java.util.Objects.equals(valueAt.apply(i), entry.getValue());
      }
    };
  }

  /** Walks the positions of this view; removal is not supported (the view is read-only). */
  private final class Positions<T> implements Iterator<T> {
    private final IntFunction<T> element;
    private int next = from;

    Positions(IntFunction<T> element) {
      this.element = element;
    }

    @Override
    public boolean hasNext() {
      return next < to;
    }

    @Override
    public T next() {
      if (next >= to) {
        throw new NoSuchElementException();
      }
      return element.apply(next++);
    }
  }
}
