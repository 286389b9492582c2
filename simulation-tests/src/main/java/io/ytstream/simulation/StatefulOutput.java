package io.ytstream.simulation;

import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.simulation.check.CountBelowCheckpoint;
import io.ytstream.simulation.check.Ledger;
import io.ytstream.simulation.check.Overcount;
import io.ytstream.simulation.check.RecomputationMismatch;
import io.ytstream.simulation.check.Violations;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.TreeMap;
import java.util.function.BiPredicate;

/**
 * {@link RealTimeOutput}'s model of the stateful query's output: the table's counts by key as the
 * cluster holds them, against counts made from the {@link Ledger} of the queue, never from the
 * query's state: the rows below the last committed end, and the rows any run pulled. A row trimmed
 * and reported lost may be counted or not (a task may have pulled it before the trim and carried it
 * into the batch whose plan reports it), so it is in the upper recomputation only when a run pulled
 * it.
 */
final class StatefulOutput {

  private final Ledger ledger;
  private final Violations out;
  private final BiPredicate<Integer, Long> reportedLost;
  private final TreeMap<Long, Long> table = new TreeMap<>();
  private final TreeMap<Long, Long> committedCounts = new TreeMap<>();
  private final TreeMap<Long, Long> committedWithLost = new TreeMap<>();
  private final TreeMap<Long, Long> pulledCounts = new TreeMap<>();
  private final long[] committedTo;
  private final BitSet[] pulled;

  StatefulOutput(Ledger ledger, Violations out, BiPredicate<Integer, Long> reportedLost) {
    this.ledger = ledger;
    this.out = out;
    this.reportedLost = reportedLost;
    committedTo = new long[ledger.partitions()];
    pulled = new BitSet[ledger.partitions()];
    Arrays.setAll(pulled, o -> new BitSet());
  }

  /** How the table changed. */
  void read(TableDelta delta) {
    for (Row row : delta.removed()) {
      table.remove((Long) row.get("k"));
    }
    for (Row row : delta.added()) {
      table.put((Long) row.get("k"), (Long) row.get("count"));
    }
    check();
  }

  /** A run pulled {@code rows} of partition {@code ordinal}. */
  void pulled(int ordinal, List<QueueRow> rows) {
    for (QueueRow row : rows) {
      int r = (int) row.rowIndex();
      if (r < ledger.produced(ordinal) && !pulled[ordinal].get(r)) {
        pulled[ordinal].set(r);
        pulledCounts.merge(key(ordinal, r), 1L, Long::sum);
      }
    }
  }

  /** The last committed ends, by ordinal. */
  void committed(long[] ends) {
    for (int o = 0; o < ends.length; o++) {
      for (; committedTo[o] < Math.min(ends[o], ledger.produced(o)); committedTo[o]++) {
        long r = committedTo[o];
        boolean lost = reportedLost.test(o, r);
        if (!lost) {
          committedCounts.merge(key(o, r), 1L, Long::sum);
        }
        if (!lost || pulled[o].get((int) r)) {
          committedWithLost.merge(key(o, r), 1L, Long::sum);
        }
      }
    }
    check();
  }

  /**
   * What a reader of the table may see at any time: a key's count no lower than the last committed
   * checkpoint's (a recovery goes back that far, never further) and no higher than the number of
   * the key's rows read so far.
   */
  private void check() {
    committedCounts.forEach(
        (key, committed) ->
            CountBelowCheckpoint.check(out, key, table.getOrDefault(key, 0L), committed));
    table.forEach(
        (key, count) -> Overcount.check(out, key, count, pulledCounts.getOrDefault(key, 0L)));
  }

  /** The run ended with every row consumed: the table is the recomputation of the rows read. */
  void finish() {
    RecomputationMismatch.compare(out, table, committedCounts, committedWithLost);
  }

  /** The rows the table counts. */
  long rowsOut() {
    return table.values().stream().mapToLong(Long::longValue).sum();
  }

  private long key(int ordinal, long row) {
    return RealTimeRun.keyOf(ledger.value(ordinal, row));
  }
}
