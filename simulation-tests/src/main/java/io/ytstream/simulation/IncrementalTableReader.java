package io.ytstream.simulation;

import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Follows one table of the in-memory cluster for the checker, returning only what changed since the
 * last call: re-reading the whole output after every consumer move made checking quadratic in the
 * length of a run. Ordered tables: rows appended per tablet, rows trimmed. Sorted tables: rows
 * whose newest version is newer than the last look; a row count that disagrees with what is held
 * means a key was deleted, and then the table is read whole once. Static tables: rows appended at
 * the end by committed master transactions.
 */
final class IncrementalTableReader {

  private final InMemoryCluster cluster;
  private final YPath table;
  private final List<String> keyColumns; // empty for an ordered or static table
  private final boolean staticTable;

  /** Ordered: the rows held per tablet, and the index of the first one. */
  private final List<List<Row>> held = new ArrayList<>();

  private final List<Long> firstHeld = new ArrayList<>();

  /** Sorted: the rows held, by key, and the timestamp they are as of. */
  private final Map<List<Object>, Row> byKey = new HashMap<>();

  private long asOf;

  /** Static: the committed rows read so far. */
  private int staticRows;

  IncrementalTableReader(InMemoryCluster cluster, YPath table, List<String> keyColumns) {
    this(cluster, table, keyColumns, false);
  }

  private IncrementalTableReader(
      InMemoryCluster cluster, YPath table, List<String> keyColumns, boolean staticTable) {
    this.cluster = cluster;
    this.table = table;
    this.keyColumns = List.copyOf(keyColumns);
    this.staticTable = staticTable;
  }

  /** Follows a static table, which only ever grows at its end (appends, never trims). */
  static IncrementalTableReader ofStaticTable(InMemoryCluster cluster, YPath table) {
    return new IncrementalTableReader(cluster, table, List.of(), true);
  }

  /** The tablet an added row of an ordered table is in. */
  static final String TABLET = "$tablet_index";

  TableDelta read() {
    if (staticTable) {
      return readStatic();
    }
    return keyColumns.isEmpty() ? readOrdered() : readSorted();
  }

  private TableDelta readStatic() {
    List<Row> rows = cluster.readStaticTable(table, Optional.empty());
    List<Row> added = new ArrayList<>(rows.subList(staticRows, rows.size()));
    staticRows = rows.size();
    return new TableDelta(List.of(), added, rows.size());
  }

  private TableDelta readOrdered() {
    List<Row> removed = new ArrayList<>();
    List<Row> added = new ArrayList<>();
    long count = 0;
    List<PartitionBounds> bounds = cluster.partitions(table);
    for (PartitionBounds b : bounds) {
      int t = b.index();
      if (t == held.size()) {
        held.add(new ArrayList<>());
        firstHeld.add(b.trimmedRowCount());
      }
      List<Row> rows = held.get(t);
      long first = firstHeld.get(t);
      if (b.trimmedRowCount() > first) {
        int drop = (int) Math.min(rows.size(), b.trimmedRowCount() - first);
        List<Row> gone = rows.subList(0, drop);
        removed.addAll(gone);
        gone.clear();
        first = b.trimmedRowCount();
        firstHeld.set(t, first);
      }
      long next = first + rows.size();
      if (b.totalRowCount() > next) {
        List<Row> fresh = cluster.rows(table, t, next);
        rows.addAll(fresh);
        for (Row row : fresh) {
          added.add(row.with(TABLET, (long) t)); // where the checker finds it, for row order
        }
      }
      count += rows.size();
    }
    return new TableDelta(removed, added, count);
  }

  private TableDelta readSorted() {
    List<Row> removed = new ArrayList<>();
    List<Row> added = new ArrayList<>();
    long now = cluster.lastTimestamp();
    for (Row row : cluster.rowsCommittedAfter(table, asOf)) {
      Row before = byKey.put(keyOf(row), row);
      if (before != null) {
        removed.add(before);
      }
      added.add(row);
    }
    asOf = now;
    if (byKey.size() != cluster.rowCount(table)) {
      // Some key was deleted: drop everything the caller holds and start over from a whole read.
      Set<Row> fresh = Collections.newSetFromMap(new IdentityHashMap<>());
      fresh.addAll(added);
      for (Row row : byKey.values()) {
        if (!fresh.contains(row)) {
          removed.add(row);
        }
      }
      added.clear();
      byKey.clear();
      for (Row row : cluster.outputTables().readAll(table)) {
        byKey.put(keyOf(row), row);
        added.add(row);
      }
    }
    return new TableDelta(removed, added, byKey.size());
  }

  private List<Object> keyOf(Row row) {
    List<Object> key = new ArrayList<>(keyColumns.size());
    for (String column : keyColumns) {
      key.add(row.get(column));
    }
    return key;
  }
}
