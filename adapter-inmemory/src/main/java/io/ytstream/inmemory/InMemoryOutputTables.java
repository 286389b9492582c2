package io.ytstream.inmemory;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.OutputTables;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes outside a batch transaction, each call one transaction of its own (so the per-tablet row
 * limit and row locks apply), and whole-table reads for checking results.
 */
final class InMemoryOutputTables implements OutputTables {

  private final ClusterState cluster;

  InMemoryOutputTables(ClusterState cluster) {
    this.cluster = cluster;
  }

  @Override
  public void append(YPath orderedTable, List<Row> rows) {
    synchronized (cluster) {
      cluster
          .faults()
          .call(
              ClusterOperation.OUTPUT_APPEND,
              () -> {
                cluster.orderedTable(orderedTable);
                writeInOwnTransaction(orderedTable, rows);
                return null;
              },
              () -> {});
    }
  }

  @Override
  public void upsert(YPath sortedTable, List<Row> rows) {
    synchronized (cluster) {
      cluster
          .faults()
          .call(
              ClusterOperation.OUTPUT_UPSERT,
              () -> {
                cluster.sortedTable(sortedTable);
                writeInOwnTransaction(sortedTable, rows);
                return null;
              },
              () -> {});
    }
  }

  /** Data columns only, in schema order; positions are what {@code pull} is for. */
  @Override
  public List<Row> readAll(YPath table) {
    synchronized (cluster) {
      return cluster
          .faults()
          .call(
              ClusterOperation.OUTPUT_READ,
              () -> {
                TableNode node = cluster.table(table);
                if (node instanceof SortedTable sorted) {
                  return List.copyOf(sorted.readAllLatest());
                }
                OrderedTable ordered = (OrderedTable) node;
                List<Row> rows = new ArrayList<>();
                for (int i = 0; i < ordered.tabletCount(); i++) {
                  OrderedTablet tablet = ordered.tablet(i);
                  tablet.read(0, Integer.MAX_VALUE).forEach(r -> rows.add(r.data()));
                }
                return List.copyOf(rows);
              });
    }
  }

  private void writeInOwnTransaction(YPath table, List<Row> rows) {
    InMemoryTransaction transaction = InMemoryTransaction.startForOneCall(cluster);
    transaction.bufferInserts(table, rows);
    transaction.commitNow();
  }
}
