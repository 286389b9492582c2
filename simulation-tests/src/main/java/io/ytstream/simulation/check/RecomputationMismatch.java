package io.ytstream.simulation.check;

import java.util.SortedMap;
import java.util.TreeSet;

/**
 * At the end of a run, a stateful query's upserted table differs from its batch recomputation: the
 * count of each key over every row the committed batches read, counted from the {@link Ledger}.
 * Once the replays have caught up, the table must hold exactly those counts.
 */
public final class RecomputationMismatch {

  public static final Property PROPERTY =
      new Property("RecomputationMismatch", "final table differs from batch recomputation");

  private RecomputationMismatch() {}

  /**
   * The table's counts by key against the recomputed ones: each at least {@code low}'s and at most
   * {@code high}'s, which differ only by rows that may or may not have been read (trimmed, and
   * reported lost, after a task pulled them).
   */
  public static void compare(
      Violations out,
      SortedMap<Long, Long> table,
      SortedMap<Long, Long> low,
      SortedMap<Long, Long> high) {
    TreeSet<Long> keys = new TreeSet<>(table.keySet());
    keys.addAll(high.keySet());
    for (long key : keys) {
      long count = table.getOrDefault(key, 0L);
      if (count < low.getOrDefault(key, 0L) || count > high.getOrDefault(key, 0L)) {
        out.add(
            PROPERTY,
            "the table holds "
                + table
                + "; recomputed from the rows read: "
                + (low.equals(high) ? low : "from " + low + " to " + high));
        return;
      }
    }
  }
}
