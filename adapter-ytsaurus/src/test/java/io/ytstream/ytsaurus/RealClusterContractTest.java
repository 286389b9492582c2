package io.ytstream.ytsaurus;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.contract.CheckpointStoreContract;
import io.ytstream.ports.contract.ClusterFixture;
import io.ytstream.ports.contract.ConsumerOffsetsContract;
import io.ytstream.ports.contract.OutputTablesContract;
import io.ytstream.ports.contract.QueueMetadataContract;
import io.ytstream.ports.contract.QueuePartitionReaderContract;
import io.ytstream.ports.contract.QueueProducersContract;
import io.ytstream.ports.contract.StaticTableAppendsContract;
import io.ytstream.ports.contract.TableMetadataContract;
import io.ytstream.ports.contract.TabletTransactionContract;
import io.ytstream.ports.spi.YtCluster;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The port contract suite against a real cluster: {@code mvn -B -Pyt-cluster -pl adapter-ytsaurus
 * -am verify -Dyt.proxy=<proxy> -Dyt.token=<token>} (the token may also come from {@code YT_TOKEN}
 * or {@code ~/.yt/token}; other {@code -Dyt.*} settings such as {@code
 * -Dyt.http.caCertificates=ca.pem} are passed on). Each test works in its own {@code
 * //tmp/ytstream-contract-<uuid>} and removes it. Without {@code -Dyt.proxy} the suite is skipped
 * with one line saying so.
 */
@Tag("yt-cluster")
@ExtendWith(RealClusterContractTest.ProxyConfigured.class)
class RealClusterContractTest {

  /** Skips everything, with one printed line, when no proxy is configured. */
  static final class ProxyConfigured implements ExecutionCondition {
    private static final AtomicBoolean SAID = new AtomicBoolean();

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      String proxy = System.getProperty("yt.proxy", "");
      if (!proxy.isBlank()) {
        return ConditionEvaluationResult.enabled("yt.proxy=" + proxy);
      }
      String line =
          "yt-cluster: skipped, no cluster configured (run with -Pyt-cluster -Dyt.proxy=<proxy>"
              + " -Dyt.token=<token>)";
      if (SAID.compareAndSet(false, true)) {
        System.out.println(line);
      }
      return ConditionEvaluationResult.disabled(line);
    }
  }

  static final class RealClusterFixture implements ClusterFixture {
    private final YtsaurusCluster cluster;
    private final HttpClusterAdmin admin;
    private final YPath root;

    RealClusterFixture() {
      // Every -Dyt.* but the address is a connection setting (yt.token, yt.http.caCertificates..).
      Map<String, String> settings = new TreeMap<>();
      System.getProperties()
          .stringPropertyNames()
          .forEach(
              key -> {
                String value = System.getProperty(key, "");
                if (key.startsWith("yt.") && !key.equals("yt.proxy") && !value.isBlank()) {
                  settings.put(key, value);
                }
              });
      cluster =
          YtsaurusCluster.connect(
              YtsaurusClientConfig.fromSettings(System.getProperty("yt.proxy"), settings));
      admin = new HttpClusterAdmin(cluster);
      root = YPath.of("//tmp/ytstream-contract-" + UUID.randomUUID());
      admin.createMapNode(root);
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
      return EnumSet.noneOf(Capability.class);
    }

    @Override
    public void createOrderedTable(YPath path, List<Column> columns, int tabletCount) {
      admin.createOrderedTable(path, columns, tabletCount);
    }

    @Override
    public void createSortedTable(YPath path, List<Column> columns) {
      admin.createSortedTable(path, columns);
    }

    @Override
    public void createStaticTable(YPath path, List<Column> columns) {
      admin.createStaticTable(path, columns);
    }

    @Override
    public void createConsumer(YPath path) {
      admin.createConsumer(path);
    }

    @Override
    public void createQueueProducer(YPath path) {
      admin.createQueueProducer(path);
    }

    @Override
    public void registerConsumer(YPath queue, YPath consumer) {
      admin.register(queue, consumer);
    }

    @Override
    public void unregisterConsumer(YPath queue, YPath consumer) {
      admin.unregister(queue, consumer);
    }

    @Override
    public void trim(YPath queue, int tablet, long trimmedRowCount) {
      admin.trim(queue, tablet, trimmedRowCount);
    }

    @Override
    public void reshard(YPath orderedTable, int tabletCount) {
      admin.reshard(orderedTable, tabletCount);
    }

    @Override
    public void elapse(Duration duration) {
      try {
        Thread.sleep(duration.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public int useRowLimitPerTablet(int wanted) {
      return 100_000;
    }

    @Override
    public void limitRowsPerPull(int rows) {
      throw new UnsupportedOperationException("a real cluster has no pull cap to set");
    }

    @Override
    public void failNextCommitWithUnknownOutcome(boolean applied) {
      throw new UnsupportedOperationException("a real cluster cannot be told to lose a response");
    }

    @Override
    public void close() {
      try {
        admin.remove(root);
      } finally {
        cluster.close();
      }
    }
  }

  @Nested
  class QueuePartitionReader extends QueuePartitionReaderContract {
    @Override
    protected ClusterFixture newFixture() {
      return new RealClusterFixture();
    }
  }

  @Nested
  class QueueMetadata extends QueueMetadataContract {
    @Override
    protected ClusterFixture newFixture() {
      return new RealClusterFixture();
    }
  }

  @Nested
  class ConsumerOffsets extends ConsumerOffsetsContract {
    @Override
    protected ClusterFixture newFixture() {
      return new RealClusterFixture();
    }
  }

  @Nested
  class TabletTransactions extends TabletTransactionContract {
    @Override
    protected ClusterFixture newFixture() {
      return new RealClusterFixture();
    }
  }

  @Nested
  class OutputTables extends OutputTablesContract {
    @Override
    protected ClusterFixture newFixture() {
      return new RealClusterFixture();
    }
  }

  @Nested
  class TableMetadata extends TableMetadataContract {
    @Override
    protected ClusterFixture newFixture() {
      return new RealClusterFixture();
    }
  }

  @Nested
  class CheckpointStore extends CheckpointStoreContract {
    @Override
    protected ClusterFixture newFixture() {
      return new RealClusterFixture();
    }
  }

  @Nested
  class QueueProducers extends QueueProducersContract {
    @Override
    protected ClusterFixture newFixture() {
      return new RealClusterFixture();
    }
  }

  @Nested
  class StaticTableAppends extends StaticTableAppendsContract {
    @Override
    protected ClusterFixture newFixture() {
      return new RealClusterFixture();
    }
  }
}
