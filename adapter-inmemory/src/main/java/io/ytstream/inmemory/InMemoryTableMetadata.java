package io.ytstream.inmemory;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableMetadata;

/** {@code @schema}, {@code @tablet_count} and whether a table is sorted. */
final class InMemoryTableMetadata implements TableMetadata {

  private final ClusterState cluster;

  InMemoryTableMetadata(ClusterState cluster) {
    this.cluster = cluster;
  }

  @Override
  public TableDescription describe(YPath table) {
    synchronized (cluster) {
      return cluster
          .faults()
          .call(
              ClusterOperation.DESCRIBE,
              () -> {
                TableNode node = cluster.table(table);
                return new TableDescription(
                    table, node.schema().sorted(), node.tabletCount(), node.schema().columns());
              });
    }
  }
}
