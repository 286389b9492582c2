package io.ytstream.spark;

import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.InMemoryClusters;
import io.ytstream.ports.CheckpointStore;
import io.ytstream.ports.ConsumerOffsets;
import io.ytstream.ports.NodeStatus;
import io.ytstream.ports.OutputTables;
import io.ytstream.ports.QueueMetadata;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueProducers;
import io.ytstream.ports.TableMetadata;
import io.ytstream.ports.TabletTransactions;
import io.ytstream.ports.TimeSource;
import io.ytstream.ports.spi.ClusterConnector;
import io.ytstream.ports.spi.ConnectionSettings;
import io.ytstream.ports.spi.YtCluster;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Test-only connector for {@code chaos:<name>}: the in-memory cluster {@code <name>}, with its
 * checkpoint store wrapped so a test can break one checkpoint call chosen by path and call number
 * (the in-memory {@code FaultInjector} counts calls per operation, not per path). This is how a
 * driver that stops right after the sink committed batch N, before Spark published {@code
 * commits/N}, is reproduced: the rename that publishes {@code commits/N} fails.
 */
public final class ChaosConnector implements ClusterConnector {

  static final String PREFIX = "chaos:";

  /**
   * A checkpoint call that breaks: the {@code skip + 1}-th call matching method, path and
   * condition.
   */
  static final class Point {
    final String method;
    final Pattern path;
    final BooleanSupplier when;
    final Consumer<YPath> action;
    private int skip;
    private boolean fired;

    Point(String method, Pattern path, BooleanSupplier when, int skip, Consumer<YPath> action) {
      this.method = method;
      this.path = path;
      this.when = when;
      this.skip = skip;
      this.action = action;
    }

    synchronized boolean fires(String m, YPath p) {
      if (fired
          || !method.equals(m)
          || !path.matcher(p.value()).matches()
          || !when.getAsBoolean()) {
        return false;
      }
      if (skip > 0) {
        skip--;
        return false;
      }
      fired = true;
      return true;
    }

    synchronized boolean fired() {
      return fired;
    }
  }

  private static final Map<String, List<Point>> POINTS = new ConcurrentHashMap<>();

  /** Arms a point on cluster {@code name}; it fires once. */
  static Point arm(String name, Point point) {
    POINTS.computeIfAbsent(name, n -> new CopyOnWriteArrayList<>()).add(point);
    return point;
  }

  /** Drops every point of cluster {@code name}, fired or not. */
  static void disarm(String name) {
    POINTS.remove(name);
  }

  static String address(String name) {
    return PREFIX + name;
  }

  @Override
  public String name() {
    return "chaos";
  }

  @Override
  public String addressForms() {
    return "chaos:<name> (tests only: the in-memory cluster <name> with checkpoint faults)";
  }

  @Override
  public boolean accepts(String address) {
    return address != null && address.startsWith(PREFIX) && address.length() > PREFIX.length();
  }

  @Override
  public YtCluster connect(String address, ConnectionSettings settings) {
    String name = address.substring(PREFIX.length());
    return new Cluster(name, InMemoryClusters.getOrCreate(name));
  }

  private static void check(String cluster, String method, YPath path) {
    for (Point p : POINTS.getOrDefault(cluster, List.of())) {
      if (p.fires(method, path)) {
        p.action.accept(path);
      }
    }
  }

  private static final class Cluster implements YtCluster {
    private final String name;
    private final InMemoryCluster delegate;
    private final CheckpointStore checkpoints;

    Cluster(String name, InMemoryCluster delegate) {
      this.name = name;
      this.delegate = delegate;
      this.checkpoints = new Store(name, delegate.checkpoints());
    }

    @Override
    public String name() {
      return delegate.name();
    }

    @Override
    public QueuePartitionReader queueReader() {
      return delegate.queueReader();
    }

    @Override
    public QueueMetadata queueMetadata() {
      return delegate.queueMetadata();
    }

    @Override
    public ConsumerOffsets consumerOffsets() {
      return delegate.consumerOffsets();
    }

    @Override
    public TabletTransactions transactions() {
      return delegate.transactions();
    }

    @Override
    public OutputTables outputTables() {
      return delegate.outputTables();
    }

    @Override
    public TableMetadata tableMetadata() {
      return delegate.tableMetadata();
    }

    @Override
    public CheckpointStore checkpoints() {
      return checkpoints;
    }

    @Override
    public TimeSource time() {
      return delegate.time();
    }

    @Override
    public QueueProducers queueProducers() {
      return delegate.queueProducers();
    }

    @Override
    public void close() {
      delegate.close();
    }

    @Override
    public String toString() {
      return "chaos:" + name;
    }
  }

  private static final class Store implements CheckpointStore {
    private final String cluster;
    private final CheckpointStore delegate;

    Store(String cluster, CheckpointStore delegate) {
      this.cluster = cluster;
      this.delegate = delegate;
    }

    @Override
    public void createDirectories(YPath directory) {
      delegate.createDirectories(directory);
    }

    @Override
    public void writeFile(YPath file, byte[] content, boolean overwrite) {
      check(cluster, "writeFile", file);
      delegate.writeFile(file, content, overwrite);
    }

    @Override
    public byte[] readFile(YPath file) {
      check(cluster, "readFile", file);
      return delegate.readFile(file);
    }

    @Override
    public void rename(YPath source, YPath target) {
      check(cluster, "rename", target);
      delegate.rename(source, target);
    }

    @Override
    public List<String> list(YPath directory) {
      return delegate.list(directory);
    }

    @Override
    public boolean delete(YPath node, boolean recursive) {
      return delegate.delete(node, recursive);
    }

    @Override
    public Optional<NodeStatus> status(YPath node) {
      return delegate.status(node);
    }
  }
}
