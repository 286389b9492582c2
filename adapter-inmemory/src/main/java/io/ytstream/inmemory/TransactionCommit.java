package io.ytstream.inmemory;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Commits one transaction's buffered writes: all of them or none. Every check (tables still exist,
 * per-tablet row limit 1717, row-lock conflicts 1700) runs before the first change, so a failed
 * commit leaves the cluster untouched. Runs under the cluster lock.
 */
final class TransactionCommit {

  private record PlannedAppend(OrderedTable table, int tablet, Row data) {}

  /** What the transaction writes to one table. */
  private static final class TableWrites {
    final YPath path;
    final OrderedTable ordered; // null for a sorted table
    final SortedTable sorted; // null for an ordered table

    /** Rows per tablet, for the row limit (a sorted table has one tablet). */
    final int[] rowsPerTablet;

    /** Ordered: the next tablet for a row without {@code $tablet_index}; -1 until one comes. */
    int nextUntargetedTablet = -1;

    /** Sorted: the last write per key wins inside one transaction. */
    final TreeMap<RowKey, Optional<Row>> sortedWrites;

    TableWrites(YPath path, OrderedTable ordered, SortedTable sorted) {
      this.path = path;
      this.ordered = ordered;
      this.sorted = sorted;
      this.rowsPerTablet = new int[ordered != null ? ordered.tabletCount() : 1];
      this.sortedWrites = sorted != null ? new TreeMap<>() : null;
    }
  }

  private final ClusterState cluster;
  private final InMemoryTransaction transaction;

  /**
   * By path, so checks and sorted writes run in one defined order. Made when a second table comes:
   * most commits write one table ({@link #first}).
   */
  private Map<YPath, TableWrites> tables;

  private TableWrites first;

  private final List<PlannedAppend> appends = new ArrayList<>();

  /** The table of the previous write: a call's writes all go to one table, found once. */
  private TableWrites last;

  private TransactionCommit(ClusterState cluster, InMemoryTransaction transaction) {
    this.cluster = cluster;
    this.transaction = transaction;
  }

  /** Applies {@code writes} atomically and returns the commit timestamp. */
  static long apply(
      ClusterState cluster, InMemoryTransaction transaction, List<BufferedWrite> writes) {
    TransactionCommit commit = new TransactionCommit(cluster, transaction);
    for (BufferedWrite write : writes) {
      commit.plan(write);
    }
    commit.checkRowLimit();
    commit.checkLockConflicts();
    return commit.applyPlanned();
  }

  @SuppressWarnings("ReferenceEquality") // a cache keyed by the caller's YPath object
  private TableWrites tableOf(YPath path, boolean ordered) {
    if (last != null && last.path == path) {
      return last;
    }
    TableWrites found =
        tables != null ? tables.get(path) : first != null && first.path.equals(path) ? first : null;
    if (found == null) {
      found =
          ordered
              ? new TableWrites(path, cluster.orderedTable(path), null)
              : new TableWrites(path, null, cluster.sortedTable(path));
      if (first == null) {
        first = found;
      } else {
        if (tables == null) {
          tables = new TreeMap<>();
          tables.put(first.path, first);
        }
        tables.put(path, found);
      }
    } else if ((found.ordered != null) != ordered) {
      // Re-created as the other kind since the first write: fails as resolving it would.
      TableNode unused = ordered ? cluster.orderedTable(path) : cluster.sortedTable(path);
    }
    last = found;
    return found;
  }

  /** Every table written, by path. */
  private Collection<TableWrites> written() {
    return tables != null ? tables.values() : first != null ? List.of(first) : List.of();
  }

  private void plan(BufferedWrite write) {
    if (write instanceof BufferedWrite.OrderedAppend append) {
      TableWrites writes = tableOf(append.table(), true);
      OrderedTable table = writes.ordered;
      int tablet;
      if (append.tablet().isPresent()) {
        tablet = append.tablet().getAsInt();
      } else {
        int next =
            writes.nextUntargetedTablet >= 0
                ? writes.nextUntargetedTablet
                : table.nextTabletForUntargetedRow();
        tablet = next % table.tabletCount();
        writes.nextUntargetedTablet = (tablet + 1) % table.tabletCount();
      }
      appends.add(new PlannedAppend(table, tablet, append.data()));
      writes.rowsPerTablet[tablet]++;
    } else if (write instanceof BufferedWrite.SortedWrite sorted) {
      TableWrites writes = tableOf(sorted.table(), false);
      writes.sortedWrites.put(sorted.key(), sorted.row());
      writes.rowsPerTablet[0]++;
    }
  }

  /** The first tablet over the limit, in (table path, tablet) order. */
  private void checkRowLimit() {
    int limit = cluster.maxRowsPerTabletPerTransaction();
    for (TableWrites writes : written()) {
      for (int tablet = 0; tablet < writes.rowsPerTablet.length; tablet++) {
        int rows = writes.rowsPerTablet[tablet];
        if (rows > limit) {
          throw ClusterErrors.tooManyRows(writes.path, tablet, rows, limit);
        }
      }
    }
  }

  /** First committer wins: a key committed by someone else after we started is a conflict. */
  private void checkLockConflicts() {
    long startTimestamp = transaction.startTimestamp();
    for (TableWrites writes : written()) {
      // No key of a table written to last before this transaction started can conflict: one
      // reading instead of a lookup per written key (a tenth of the emulator's CPU writing to a
      // sorted table).
      if (writes.sorted == null || writes.sorted.lastWriteTimestamp() <= startTimestamp) {
        continue;
      }
      for (RowKey key : writes.sortedWrites.keySet()) {
        if (writes.sorted.lastCommitTimestamp(key) > startTimestamp) {
          throw ClusterErrors.lockConflict(transaction.id(), writes.path, key);
        }
      }
    }
  }

  private long applyPlanned() {
    long commitTimestamp = cluster.timestamps().next();
    long oldestReader = cluster.transactions().oldestStartTimestamp().orElse(commitTimestamp);
    for (PlannedAppend append : appends) {
      StoredSchema schema = append.table().schema();
      append
          .table()
          .tablet(append.tablet())
          .append(append.data(), commitTimestamp, DataWeight.ofRow(append.data(), schema));
    }
    for (TableWrites writes : written()) {
      if (writes.ordered != null && writes.nextUntargetedTablet >= 0) {
        writes.ordered.setNextTabletForUntargetedRow(writes.nextUntargetedTablet);
      }
    }
    for (TableWrites writes : written()) {
      if (writes.sorted != null) {
        writes.sortedWrites.forEach(
            (key, row) -> writes.sorted.write(key, row, commitTimestamp, oldestReader));
      }
    }
    return commitTimestamp;
  }
}
