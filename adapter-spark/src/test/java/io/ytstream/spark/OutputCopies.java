package io.ytstream.spark;

import java.util.Collection;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The ids an output holds against the source ids written: how many extra copies it holds in all,
 * and which source ids it lacks.
 */
record OutputCopies(long duplicates, TreeSet<Long> lost) {

  static OutputCopies of(Collection<Long> output, Collection<Long> input) {
    TreeMap<Long, Integer> copies = new TreeMap<>();
    for (long id : output) {
      copies.merge(id, 1, Integer::sum);
    }
    long duplicates = copies.values().stream().mapToLong(n -> n - 1).sum();
    TreeSet<Long> lost = new TreeSet<>(input);
    lost.removeAll(copies.keySet());
    return new OutputCopies(duplicates, lost);
  }
}
