package io.ytstream.simulation.check;

import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * Producer writers: a source partition's rows come into an output tablet out of source order.
 *
 * <p>Each output tablet keeps the rows pushed into it in push order, so a partition's rows come
 * into each tablet in source order: a row new to the output that arrives after a later row of its
 * partition in the same tablet was sent out of order. Both runtimes feed every added output row.
 */
public final class NonmonotonicSend {

  public static final Property PROPERTY =
      new Property("NonmonotonicSend", "nonmonotonic send (output out of source order)");

  /** Per source partition: by output tablet, {@code row << 2 | copy} of its newest row there. */
  private final TreeMap<Long, Long>[] newest;

  @SuppressWarnings("unchecked")
  public NonmonotonicSend(int partitions) {
    newest = new TreeMap[partitions];
    for (int o = 0; o < partitions; o++) {
      newest[o] = new TreeMap<>();
    }
  }

  /**
   * Copy {@code copy} of row {@code row} of partition {@code ordinal} came into output tablet
   * {@code tablet}; {@code isNew}: no copy of it was in the output before (a repeat is a duplicate,
   * not a reorder).
   */
  public void arrived(
      Violations out,
      int ordinal,
      long tablet,
      long row,
      int copy,
      boolean isNew,
      IntFunction<String> name) {
    long position = row << 2 | copy;
    Long before = newest[ordinal].get(tablet);
    if (before != null && position < before && isNew) {
      out.add(
          PROPERTY,
          name.apply(ordinal)
              + " row "
              + row
              + " copy "
              + copy
              + " came into output tablet "
              + tablet
              + " after row "
              + (before >>> 2)
              + " copy "
              + (before & 3));
    }
    if (before == null || position > before) {
      newest[ordinal].put(tablet, position);
    }
  }

  /** The source row of partition {@code ordinal}'s newest output row, or -1 if none. */
  public long newestRow(int ordinal) {
    long max = -1;
    for (long n : newest[ordinal].values()) {
      max = Math.max(max, n);
    }
    return max < 0 ? -1 : max >>> 2;
  }
}
