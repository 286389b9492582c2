package io.ytstream.simulation;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.ports.Row;
import io.ytstream.simulation.check.GarbageWrite;
import io.ytstream.simulation.check.Ledger;
import io.ytstream.simulation.check.MisplacedWrite;
import io.ytstream.simulation.check.NonmonotonicSend;
import io.ytstream.simulation.check.Violations;
import java.util.ArrayList;
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

  /** Producer mode: the order each partition's rows come into each output tablet. */
  private final NonmonotonicSend order;

  /** Where the job chose its rows' tablets: whether they are there; null otherwise. */
  private final MisplacedWrite placement;

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
    order = new NonmonotonicSend(n);
    placement =
        ctx.tabletChoice == TabletChoice.ROUND_ROBIN
            ? null
            : new MisplacedWrite(
                ctx.tabletChoice == TabletChoice.COLUMN, Math.max(1, w.outputTablets()));
  }

  long rows() {
    return rows;
  }

  long covered(int ordinal) {
    return covered[ordinal];
  }

  /** Producer mode: the row index of partition {@code ordinal}'s newest output row, or -1. */
  long newestRow(int ordinal) {
    return order.newestRow(ordinal);
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
   * Takes in a change of the table: each added row that matches no input row is a {@link
   * GarbageWrite}; in producer mode each added row goes to {@link NonmonotonicSend}, and where the
   * job chose its rows' tablets to {@link MisplacedWrite}.
   */
  void apply(TableDelta delta, Violations out) {
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
    int tablets = Math.max(1, w.outputTablets());
    for (Row row : delta.added()) {
      if (aggregate) {
        addSum(row, 1);
        continue;
      }
      long key = position(row);
      if (key < 0) {
        unmatched.add(row);
        GarbageWrite.unmatched(out, row);
        continue;
      }
      int o = (int) (key >>> 40);
      long r = (key >>> 2) & ((1L << 38) - 1);
      int copy = (int) (key & 3);
      if (w.mode() == SimMode.PRODUCER) {
        order.arrived(
            out, o, tabletOf(row, tablets), r, copy, count(o, r, copy) == 0, this::partitionName);
      }
      if (placement != null) {
        placement.arrived(out, (Long) row.get("v"), tabletOf(row, tablets));
      }
      add(o, r, copy, 1);
    }
  }

  private static int tabletOf(Row row, int tablets) {
    Object t = row.get(IncrementalTableReader.TABLET);
    return t instanceof Long l && l >= 0 && l < tablets ? l.intValue() : 0;
  }

  private String partitionName(int ordinal) {
    return w.partitions().get(ordinal).toString();
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
    if (!GarbageWrite.matches(
        ledger,
        ordinal,
        r,
        copy,
        v -> w.query().fanOut(v),
        (v, i) -> w.query().outputValue(v, i),
        (Long) row.get("v"))) {
      return -1;
    }
    return (long) ordinal << 40 | r << 2 | copy;
  }
}
