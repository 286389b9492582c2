package io.ytstream.inmemory;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import io.ytstream.ports.TransactionId;
import java.util.ArrayList;
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

  private record TabletRef(YPath table, int tablet) implements Comparable<TabletRef> {
    @Override
    public int compareTo(TabletRef other) {
      int byTable = table.compareTo(other.table);
      return byTable != 0 ? byTable : Integer.compare(tablet, other.tablet);
    }
  }

  private record PlannedAppend(OrderedTable table, int tablet, Row data) {}

  private final ClusterState cluster;
  private final TransactionId id;
  private final long startTimestamp;

  private final Map<YPath, OrderedTable> orderedTables = new TreeMap<>();
  private final Map<YPath, SortedTable> sortedTables = new TreeMap<>();
  private final Map<YPath, Integer> nextUntargetedTablet = new TreeMap<>();
  private final Map<TabletRef, Integer> rowsPerTablet = new TreeMap<>();
  private final List<PlannedAppend> appends = new ArrayList<>();

  /** Last write per key wins inside one transaction. */
  private final Map<YPath, TreeMap<RowKey, Optional<Row>>> sortedWrites = new TreeMap<>();

  private TransactionCommit(ClusterState cluster, TransactionId id, long startTimestamp) {
    this.cluster = cluster;
    this.id = id;
    this.startTimestamp = startTimestamp;
  }

  /** Applies {@code writes} atomically and returns the commit timestamp. */
  static long apply(
      ClusterState cluster, TransactionId id, long startTimestamp, List<BufferedWrite> writes) {
    TransactionCommit commit = new TransactionCommit(cluster, id, startTimestamp);
    writes.forEach(commit::plan);
    commit.checkRowLimit();
    commit.checkLockConflicts();
    return commit.applyPlanned();
  }

  private void plan(BufferedWrite write) {
    if (write instanceof BufferedWrite.OrderedAppend append) {
      OrderedTable table = orderedTables.computeIfAbsent(append.table(), cluster::orderedTable);
      int tablet;
      if (append.tablet().isPresent()) {
        tablet = append.tablet().getAsInt();
      } else {
        int next =
            nextUntargetedTablet.getOrDefault(append.table(), table.nextTabletForUntargetedRow());
        tablet = next % table.tabletCount();
        nextUntargetedTablet.put(append.table(), (tablet + 1) % table.tabletCount());
      }
      appends.add(new PlannedAppend(table, tablet, append.data()));
      rowsPerTablet.merge(new TabletRef(append.table(), tablet), 1, Integer::sum);
    } else if (write instanceof BufferedWrite.SortedWrite sorted) {
      sortedTables.computeIfAbsent(sorted.table(), cluster::sortedTable);
      sortedWrites
          .computeIfAbsent(sorted.table(), t -> new TreeMap<>())
          .put(sorted.key(), sorted.row());
      rowsPerTablet.merge(new TabletRef(sorted.table(), 0), 1, Integer::sum);
    }
  }

  private void checkRowLimit() {
    int limit = cluster.maxRowsPerTabletPerTransaction();
    for (Map.Entry<TabletRef, Integer> entry : rowsPerTablet.entrySet()) {
      if (entry.getValue() > limit) {
        throw YtErrors.tooManyRows(
            entry.getKey().table(), entry.getKey().tablet(), entry.getValue(), limit);
      }
    }
  }

  /** First committer wins: a key committed by someone else after we started is a conflict. */
  private void checkLockConflicts() {
    for (Map.Entry<YPath, TreeMap<RowKey, Optional<Row>>> table : sortedWrites.entrySet()) {
      SortedTable sorted = sortedTables.get(table.getKey());
      for (RowKey key : table.getValue().keySet()) {
        if (sorted.lastCommitTimestamp(key) > startTimestamp) {
          throw YtErrors.lockConflict(id, table.getKey(), key);
        }
      }
    }
  }

  private long applyPlanned() {
    long commitTimestamp = cluster.timestamps().next();
    long oldestReader = cluster.transactions().oldestStartTimestamp().orElse(commitTimestamp);
    for (PlannedAppend append : appends) {
      TableSchema schema = append.table().schema();
      append
          .table()
          .tablet(append.tablet())
          .append(
              append.data(),
              commitTimestamp,
              DataWeight.ofRow(append.data(), schema.declaredSystemColumnCount()));
    }
    nextUntargetedTablet.forEach(
        (path, next) -> orderedTables.get(path).setNextTabletForUntargetedRow(next));
    sortedWrites.forEach(
        (path, rows) -> {
          SortedTable table = sortedTables.get(path);
          rows.forEach((key, row) -> table.write(key, row, commitTimestamp, oldestReader));
        });
    return commitTimestamp;
  }
}
