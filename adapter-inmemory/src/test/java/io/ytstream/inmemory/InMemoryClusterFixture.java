package io.ytstream.inmemory;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.contract.ClusterFixture;
import io.ytstream.ports.spi.YtCluster;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Runs the port contracts against a fresh in-memory cluster on a manual clock. */
final class InMemoryClusterFixture implements ClusterFixture {

  private final ManualClock clock = new ManualClock();
  private final InMemoryCluster cluster = new InMemoryCluster("contract", clock);
  private final YPath root = YPath.of("//home/contract");

  InMemoryClusterFixture() {
    cluster.createMapNode(root);
  }

  @Override
  public YtCluster cluster() {
    return cluster;
  }

  @Override
  public YPath root() {
    return root;
  }

  @Override
  public Set<Capability> capabilities() {
    return EnumSet.allOf(Capability.class);
  }

  @Override
  public YtCluster clusterAs(String user) {
    return cluster.asUser(user);
  }

  @Override
  public void createDirectory(YPath path, List<Map<String, Object>> acl) {
    cluster.createMapNode(path);
    cluster.setAcl(path, acl.stream().map(AccessControlEntry::fromAttribute).toList());
  }

  @Override
  public void createOrderedTable(YPath path, List<Column> columns, int tabletCount) {
    cluster.createOrderedTable(path, columns, tabletCount);
  }

  @Override
  public void createSortedTable(YPath path, List<Column> columns) {
    cluster.createSortedTable(path, columns);
  }

  @Override
  public void createStaticTable(YPath path, List<Column> columns) {
    cluster.createStaticTable(path, columns);
  }

  @Override
  public void createConsumer(YPath path) {
    cluster.createConsumer(path);
  }

  @Override
  public void createQueueProducer(YPath path) {
    cluster.createQueueProducer(path);
  }

  @Override
  public void registerConsumer(YPath queue, YPath consumer) {
    cluster.registerConsumer(queue, consumer, false);
  }

  @Override
  public void unregisterConsumer(YPath queue, YPath consumer) {
    cluster.unregisterConsumer(queue, consumer);
  }

  @Override
  public void trim(YPath queue, int tablet, long trimmedRowCount) {
    cluster.trimRows(queue, tablet, trimmedRowCount);
  }

  @Override
  public void reshard(YPath orderedTable, int tabletCount) {
    cluster.reshard(orderedTable, tabletCount);
  }

  @Override
  public void elapse(Duration duration) {
    clock.advance(duration);
  }

  @Override
  public int useRowLimitPerTablet(int wanted) {
    cluster.setMaxRowsPerTabletPerTransaction(wanted);
    return cluster.maxRowsPerTabletPerTransaction();
  }

  @Override
  public void limitRowsPerPull(int rows) {
    cluster.setMaxRowsPerPull(rows);
  }

  @Override
  public void failNextCommitWithUnknownOutcome(boolean applied) {
    if (applied) {
      cluster.faults().unknownOutcomeAfterApplying(ClusterOperation.COMMIT, 1);
    } else {
      cluster.faults().unknownOutcomeWithoutApplying(ClusterOperation.COMMIT, 1);
    }
  }

  @Override
  public void close() {
    cluster.close();
  }
}
