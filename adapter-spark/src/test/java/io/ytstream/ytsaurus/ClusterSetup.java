package io.ytstream.ytsaurus;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.spi.YtCluster;
import java.util.List;
import java.util.Map;

/**
 * Sets up tables on a cluster reached over HTTP (a real one or the emulator) for adapter-spark's
 * cluster tests: {@link HttpClusterAdmin}'s commands, from adapter-ytsaurus's test jar, made public
 * to another package. Rows are written and read through the ports of the connection it opens.
 */
public final class ClusterSetup implements AutoCloseable {

  private final YtsaurusCluster cluster;
  private final HttpClusterAdmin admin;

  /** Connects to {@code proxy} with adapter-ytsaurus settings ({@code yt.token}, ...). */
  public ClusterSetup(String proxy, Map<String, String> settings) {
    this.cluster = YtsaurusCluster.connect(YtsaurusClientConfig.fromSettings(proxy, settings));
    this.admin = new HttpClusterAdmin(cluster);
  }

  public YtCluster cluster() {
    return cluster;
  }

  public void createMapNode(YPath path) {
    admin.createMapNode(path);
  }

  public void createOrderedTable(YPath path, List<Column> columns, int tabletCount) {
    admin.createOrderedTable(path, columns, tabletCount);
  }

  public void createSortedTable(YPath path, List<Column> columns) {
    admin.createSortedTable(path, columns);
  }

  public void createConsumer(YPath path) {
    admin.createConsumer(path);
  }

  /** Registers {@code consumer} for {@code queue} and waits until a pull sees it. */
  public void register(YPath queue, YPath consumer) {
    admin.register(queue, consumer);
  }

  /** Removes {@code path} and everything under it. */
  public void remove(YPath path) {
    admin.remove(path);
  }

  @Override
  public void close() {
    cluster.close();
  }
}
