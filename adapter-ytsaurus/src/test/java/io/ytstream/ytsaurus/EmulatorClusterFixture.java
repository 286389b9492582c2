package io.ytstream.ytsaurus;

import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.SelfSignedCertificate;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.contract.ClusterFixture;
import io.ytstream.ports.spi.YtCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The contract suite's cluster: adapter-ytsaurus talking HTTP (or HTTPS) to a fresh emulator (two
 * proxies, a required token, a manual clock). Tables, consumers, registrations, trims and reshards
 * go through real v4 commands; the test knobs a real proxy has no command for (the clock, the
 * per-tablet row limit, a cap on rows per pull, an unknown commit outcome, which the emulator turns
 * into a dropped connection) are set on the emulator's in-memory cluster. The users of {@link
 * ClusterFixture#USERS} each have a token of their own ({@link #clusterAs}).
 */
final class EmulatorClusterFixture implements ClusterFixture {

  static final String TOKEN = "contract-secret-token";

  private final ManualClock clock = new ManualClock();
  private final YtEmulator emulator;
  private final YtsaurusCluster cluster;
  private final HttpClusterAdmin admin;
  private final YPath root = YPath.of("//home/contract");
  private final boolean https;
  private final List<YtsaurusCluster> userClusters = new ArrayList<>();

  EmulatorClusterFixture() {
    this(false);
  }

  /** With {@code https}, the emulator serves HTTPS and the client trusts its certificate. */
  EmulatorClusterFixture(boolean https) {
    this.https = https;
    EmulatorOptions options = EmulatorOptions.defaults().withClock(clock).withToken(TOKEN);
    for (String user : USERS) {
      options = options.withUser(userToken(user), user);
    }
    if (https) {
      options = options.withTls(Certificate.SHARED.serverKeyStore());
    }
    emulator = YtEmulator.start(options);
    cluster = connect(TOKEN);
    admin = new HttpClusterAdmin(cluster);
    admin.createMapNode(root);
  }

  private static String userToken(String user) {
    return user + "-contract-token";
  }

  private YtsaurusCluster connect(String token) {
    YtsaurusClientConfig config =
        YtsaurusClientConfig.of(emulator.url(), Optional.of(OAuthToken.of(token)));
    if (https) {
      config = config.withCaCertificates(Certificate.SHARED.certificatePem());
    }
    return YtsaurusCluster.connect(config);
  }

  /** One self-signed certificate per test JVM: keytool takes a second, a handshake does not. */
  static final class Certificate {
    static final SelfSignedCertificate SHARED = SelfSignedCertificate.createTemporary();

    private Certificate() {}
  }

  YtEmulator emulator() {
    return emulator;
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
    return EnumSet.of(
        Capability.CONTROLLED_CLOCK,
        Capability.SMALL_ROW_LIMIT,
        Capability.SHORT_READS,
        Capability.UNKNOWN_COMMIT_OUTCOME,
        Capability.ACCESS_CONTROL);
  }

  @Override
  public synchronized YtCluster clusterAs(String user) {
    if (!USERS.contains(user)) {
      throw new IllegalArgumentException("no token for user " + user + "; users: " + USERS);
    }
    YtsaurusCluster connected = connect(userToken(user));
    userClusters.add(connected);
    return connected;
  }

  @Override
  public void createDirectory(YPath path, List<Map<String, Object>> acl) {
    admin.createMapNode(path, acl);
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
    clock.advance(duration);
  }

  @Override
  public int useRowLimitPerTablet(int wanted) {
    emulator.cluster().setMaxRowsPerTabletPerTransaction(wanted);
    return emulator.cluster().maxRowsPerTabletPerTransaction();
  }

  @Override
  public void limitRowsPerPull(int rows) {
    emulator.cluster().setMaxRowsPerPull(rows);
  }

  @Override
  public void failNextCommitWithUnknownOutcome(boolean applied) {
    if (applied) {
      emulator.cluster().faults().unknownOutcomeAfterApplying(ClusterOperation.COMMIT, 1);
    } else {
      emulator.cluster().faults().unknownOutcomeWithoutApplying(ClusterOperation.COMMIT, 1);
    }
  }

  @Override
  public void close() {
    userClusters.forEach(YtsaurusCluster::close);
    cluster.close();
    emulator.close();
  }
}
