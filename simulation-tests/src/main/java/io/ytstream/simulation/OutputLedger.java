package io.ytstream.simulation;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.ports.Row;
import io.ytstream.simulation.check.Ledger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.TreeMap;

/**
 * The output table as the checker sees it, kept up to date from the table's changes instead of
 * re-read after every consumer move (which made checking quadratic in the length of a run).
 *
 * <p>Stateless queries: how many times each (partition, row, copy) is in the output (kept in the
 * shared {@link Ledger}), plus running totals of what the checkers look for, so a check only scans
 * when one of them is non-zero: copies behind the consumer that are missing and not reported lost,
 * copies behind the consumer that are there more than once, and copies ahead of the consumer that
 * are visible. Aggregates: the counted sums per key, and the expected (and excused, reported lost)
 * counts behind the consumer.
 *
 * <p>"Behind the consumer" is {@code row < min(consumer, rows produced)}, as the checks define it.
 */
final class OutputLedger {

  private final SimContext ctx;
  private final Workload w;
  private final Ledger ledger;
  private final boolean aggregate;

  /** The text form of each of the workload's queues, by queue index. */
  private final String[] queueKeys;

  /** Per partition: rows below this are behind the consumer. */
  private final long[] covered;

  /**
   * Producer mode: per partition and output tablet, {@code row * 4 + copy} of its newest output row
   * there (-1 for none). A partition's rows are spread over the output queue's tablets, and each
   * tablet keeps them in push order, so in each tablet they come in source order.
   */
  private final long[][] newest;

  /** Rows that match no input row (yet): not counted, looked at again on every apply. */
  private final List<Row> unmatched = new ArrayList<>();

  private long rows;
  private long missing;
  private long duplicates;
  private long ahead;

  // Aggregates.
  private final TreeMap<Long, Long> actual = new TreeMap<>();
  private final TreeMap<Long, Long> actualRows = new TreeMap<>();
  private final TreeMap<Long, Long> expected = new TreeMap<>();
  private final TreeMap<Long, Long> excused = new TreeMap<>();

  OutputLedger(SimContext ctx, Ledger ledger) {
    this.ctx = ctx;
    this.w = ctx.workload;
    this.ledger = ledger;
    this.aggregate = w.query() == QueryKind.AGGREGATE;
    this.queueKeys = new String[w.queues().size()];
    for (int q = 0; q < queueKeys.length; q++) {
      queueKeys[q] = w.queues().get(q).key();
    }
    int n = w.partitions().size();
    covered = new long[n];
    newest = new long[n][Math.max(1, w.outputTablets())];
    for (long[] perTablet : newest) {
      Arrays.fill(perTablet, -1);
    }
  }

  long rows() {
    return rows;
  }

  long covered(int ordinal) {
    return covered[ordinal];
  }

  /** Producer mode: the row index of partition {@code ordinal}'s newest output row, or -1. */
  long newestRow(int ordinal) {
    long max = -1;
    for (long n : newest[ordinal]) {
      max = Math.max(max, n);
    }
    return max < 0 ? -1 : max >>> 2;
  }

  int count(int ordinal, long row, int copy) {
    return ledger.copies(ordinal, row, copy);
  }

  /** True when a scan of the rows behind (and ahead of) the consumer could find something. */
  boolean anyMissing() {
    return missing > 0;
  }

  boolean anyDuplicate() {
    return duplicates > 0;
  }

  boolean anyAhead() {
    return ahead > 0;
  }

  TreeMap<Long, Long> actual() {
    return actual;
  }

  TreeMap<Long, Long> expected() {
    return expected;
  }

  TreeMap<Long, Long> excused() {
    return excused;
  }

  /**
   * Takes in a change of the table; each added row that matches no input row goes to {@code
   * corrupt}, in table order; in producer mode, each added row new to the output that comes after a
   * later row of its partition (in source order) goes to {@code outOfOrder}.
   */
  void apply(
      TableDelta delta,
      java.util.function.Consumer<Row> corrupt,
      java.util.function.Consumer<String> outOfOrder) {
    rows = delta.rowCount();
    for (Row row : delta.removed()) {
      if (aggregate) {
        addSum(row, -1);
      } else if (!removeUnmatched(row)) {
        long key = position(row);
        add((int) (key >>> 40), (key >>> 2) & ((1L << 38) - 1), (int) (key & 3), -1);
      }
    }
    // A row that matched nothing may match once more rows are produced.
    for (Iterator<Row> it = unmatched.iterator(); it.hasNext(); ) {
      long key = position(it.next());
      if (key >= 0) {
        it.remove();
        add((int) (key >>> 40), (key >>> 2) & ((1L << 38) - 1), (int) (key & 3), 1);
      }
    }
    for (Row row : delta.added()) {
      if (aggregate) {
        addSum(row, 1);
        continue;
      }
      long key = position(row);
      if (key < 0) {
        unmatched.add(row);
        corrupt.accept(row);
      } else {
        int o = (int) (key >>> 40);
        long rowAndCopy = key & ((1L << 40) - 1);
        if (w.mode() == SimMode.PRODUCER) {
          // A copy new to its tablet after a later one is out of order; a repeat is a duplicate.
          long[] perTablet = newest[o];
          int t = tabletOf(row, perTablet.length);
          if (rowAndCopy < perTablet[t] && count(o, rowAndCopy >>> 2, (int) (key & 3)) == 0) {
            outOfOrder.accept(
                w.partitions().get(o)
                    + " row "
                    + (rowAndCopy >>> 2)
                    + " copy "
                    + (rowAndCopy & 3)
                    + " came into output tablet "
                    + t
                    + " after row "
                    + (perTablet[t] >>> 2)
                    + " copy "
                    + (perTablet[t] & 3));
          }
          perTablet[t] = Math.max(perTablet[t], rowAndCopy);
        }
        add(o, rowAndCopy >>> 2, (int) (key & 3), 1);
      }
    }
  }

  private static int tabletOf(Row row, int tablets) {
    Object t = row.get(IncrementalTableReader.TABLET);
    return t instanceof Long l && l >= 0 && l < tablets ? l.intValue() : 0;
  }

  /** Moves the consumer boundary of every partition to {@code min(consumer, rows produced)}. */
  void cover(long[] consumer) {
    for (int o = 0; o < consumer.length; o++) {
      long target = Math.min(consumer[o], ledger.produced(o));
      for (long r = covered[o]; r < target; r++) {
        coverRow(o, r, true);
      }
      for (long r = covered[o] - 1; r >= target; r--) {
        coverRow(o, r, false);
      }
      covered[o] = target;
    }
  }

  /** A row was reported lost: missing copies of it behind the consumer are excused from now on. */
  void excuse(int o, long r) {
    if (r >= covered[o]) {
      return;
    }
    long v = ledger.value(o, r);
    if (aggregate) {
      long k = SimulationRun.keyOf(v);
      bump(expected, k, -1);
      bump(excused, k, 1);
      return;
    }
    int copies = w.query().fanOut(v);
    for (int i = 0; i < copies; i++) {
      if (count(o, r, i) == 0) {
        missing--;
      }
    }
  }

  private void coverRow(int o, long r, boolean in) {
    long v = ledger.value(o, r);
    int sign = in ? 1 : -1;
    if (aggregate) {
      bump(ctx.isReportedLost(o, r) ? excused : expected, SimulationRun.keyOf(v), sign);
      return;
    }
    boolean lost = ctx.isReportedLost(o, r);
    int copies = w.query().fanOut(v);
    for (int i = 0; i < copies; i++) {
      int n = count(o, r, i);
      if (n == 0 && !lost) {
        missing += sign;
      }
      if (n > 1) {
        duplicates += sign;
      }
      if (n > 0) {
        ahead -= sign;
      }
    }
  }

  /** One more ({@code delta} 1) or one fewer (-1) copy of a matched row. */
  private void add(int o, long r, int copy, int delta) {
    int before = ledger.addCopy(o, r, copy, delta);
    int after = before + delta;
    if (r < covered[o]) {
      if ((before == 0 || after == 0) && !ctx.isReportedLost(o, r)) {
        missing -= delta;
      }
      if ((before == 1 && after == 2) || (before == 2 && after == 1)) {
        duplicates += delta;
      }
    } else if (before == 0 || after == 0) {
      ahead += delta;
    }
  }

  private boolean removeUnmatched(Row row) {
    for (Iterator<Row> it = unmatched.iterator(); it.hasNext(); ) {
      if (it.next().equals(row)) { // equal rows are interchangeable here
        it.remove();
        return true;
      }
    }
    return false;
  }

  private void addSum(Row row, int sign) {
    Long k = (Long) row.get("k");
    long n = (Long) row.get("n");
    actual.merge(k, sign * n, Long::sum);
    if (bump(actualRows, k, sign) == 0) {
      actual.remove(k);
    }
  }

  /** Adds {@code by} to a count; a count of 0 leaves the map, as if never there. */
  private static long bump(TreeMap<Long, Long> map, long key, long by) {
    long now = map.getOrDefault(key, 0L) + by;
    if (now == 0) {
      map.remove(key);
    } else {
      map.put(key, now);
    }
    return now;
  }

  /**
   * The queue a {@code <cluster>:<path>} key names: one of the workload's, found without parsing.
   */
  private QueueId queueOfKey(String key) {
    for (int q = 0; q < queueKeys.length; q++) {
      if (queueKeys[q].equals(key)) {
        return w.queues().get(q);
      }
    }
    return QueueId.parseKey(key);
  }

  /** {@code ordinal << 40 | row << 2 | copy} of the input row a row came from, or -1 if none. */
  private long position(Row row) {
    int ordinal;
    long r;
    long copy;
    if (w.mode() == SimMode.IDEMPOTENT) {
      ordinal =
          w.ordinal(
              new PartitionId(
                  queueOfKey((String) row.get(Verifier.SRC_QUEUE)),
                  ((Long) row.get(Verifier.SRC_TABLET)).intValue()));
      r = (Long) row.get(Verifier.SRC_ROW);
      copy = 0;
    } else {
      ordinal = ((Long) row.get("p")).intValue();
      r = (Long) row.get("r");
      copy = (Long) row.get("i");
    }
    if (ordinal < 0
        || r >= ledger.produced(ordinal)
        || copy >= w.query().fanOut(ledger.value(ordinal, r))
        || w.query().outputValue(ledger.value(ordinal, r), (int) copy) != (Long) row.get("v")) {
      return -1;
    }
    return (long) ordinal << 40 | r << 2 | copy;
  }
}
