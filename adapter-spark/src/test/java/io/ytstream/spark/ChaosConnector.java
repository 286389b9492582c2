package io.ytstream.spark;

import io.ytstream.core.error.CommitOutcomeUnknownException;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.InMemoryClusters;
import io.ytstream.ports.CheckpointStore;
import io.ytstream.ports.ConsumerOffsets;
import io.ytstream.ports.NodeStatus;
import io.ytstream.ports.OutputTables;
import io.ytstream.ports.ProducerPush;
import io.ytstream.ports.ProducerSession;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.PushResult;
import io.ytstream.ports.QueueMetadata;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueProducerErrors;
import io.ytstream.ports.QueueProducers;
import io.ytstream.ports.TableMetadata;
import io.ytstream.ports.TabletTransactions;
import io.ytstream.ports.TimeSource;
import io.ytstream.ports.TransactionId;
import io.ytstream.ports.spi.ClusterConnector;
import io.ytstream.ports.spi.ConnectionSettings;
import io.ytstream.ports.spi.YtCluster;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Test-only connector for {@code chaos:<name>}: the in-memory cluster {@code <name>}, with its
 * checkpoint store and its queue producers wrapped so a test can break one call chosen by path and
 * call number (the in-memory {@code FaultInjector} counts calls per operation, not per path). This
 * is how a driver that stops right after the sink committed batch N, before Spark published {@code
 * commits/N}, is reproduced: the rename that publishes {@code commits/N} fails.
 *
 * <p>Producer pushes pass two points, both matched on the output queue's path: {@link #PUSH} before
 * the push reaches the cluster (an action that throws there is a request lost on the way: nothing
 * applied) and {@link #PUSHED} after it applied (an action that throws there is a lost answer: the
 * rows are in the queue, the writer does not know). {@link #lostAnswer} is the error a writer sees
 * for either; an action may also do anything else at that moment (stop a query, fence the session).
 * {@link #pushes} counts what the pushes did, so a test can tell that a replay was skipped by the
 * server or a writer was fenced.
 */
public final class ChaosConnector implements ClusterConnector {

  static final String PREFIX = "chaos:";

  /** The point a producer push passes before it reaches the cluster; path: the queue. */
  static final String PUSH = "push";

  /** The point a producer push passes after the cluster applied it; path: the queue. */
  static final String PUSHED = "pushed";

  /** The point a session creation passes before it reaches the cluster; path: the queue. */
  static final String CREATE_SESSION = "createSession";

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

  /** What the pushes through one cluster did, counted at the port. */
  static final class PushCounts {
    /** Pushes the cluster applied (whether or not the writer got the answer). */
    final AtomicLong applied = new AtomicLong();

    /** Rows the applied pushes carried that the server skipped as already written. */
    final AtomicLong skippedRows = new AtomicLong();

    /** Pushes the cluster refused with a stale epoch (3102): a fenced writer. */
    final AtomicLong fenced = new AtomicLong();

    @Override
    public String toString() {
      return applied + " pushes applied, " + skippedRows + " rows skipped, " + fenced + " fenced";
    }
  }

  private static final Map<String, List<Point>> POINTS = new ConcurrentHashMap<>();
  private static final Map<String, PushCounts> PUSHES = new ConcurrentHashMap<>();

  /** What the pushes through cluster {@code name} did so far. */
  static PushCounts pushes(String name) {
    return PUSHES.computeIfAbsent(name, n -> new PushCounts());
  }

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

  /** What a writer sees when its request or the answer to it was lost on the wire. */
  static CommitOutcomeUnknownException lostAnswer(String what, YPath path) {
    return new CommitOutcomeUnknownException(
        "injected by ChaosConnector: the answer to " + what + " on " + path + " was lost", null);
  }

  /** A point that fires on the {@code skip + 1}-th push into {@code queue} and loses it. */
  static Point losePush(String point, String queue, int skip) {
    return new Point(
        point,
        Pattern.compile(Pattern.quote(queue)),
        () -> true,
        skip,
        path -> {
          throw lostAnswer("a producer push (" + point + ")", path);
        });
  }

  /**
   * A point that fails the {@code skip + 1}-th rename that publishes {@code commits/N}: the driver
   * stops right after the sink committed batch N, so a restart replays it.
   */
  static Point stopBeforePublishingCommit(int skip) {
    return new Point(
        "rename",
        Pattern.compile(".*/commits/[0-9]+"),
        () -> true,
        skip,
        path -> {
          throw new YtException(
              YtErrorCode.GENERIC, "injected: the driver stopped before publishing " + path);
        });
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
      return new Producers(name, delegate.queueProducers());
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

  private static final class Producers implements QueueProducers {
    private final String cluster;
    private final QueueProducers delegate;

    Producers(String cluster, QueueProducers delegate) {
      this.cluster = cluster;
      this.delegate = delegate;
    }

    @Override
    public ProducerSession createSession(ProducerSessionId session) {
      check(cluster, CREATE_SESSION, session.queue());
      return delegate.createSession(session);
    }

    @Override
    public ProducerSession createSession(ProducerSessionId session, Object userMeta) {
      check(cluster, CREATE_SESSION, session.queue());
      return delegate.createSession(session, userMeta);
    }

    @Override
    public void removeSession(ProducerSessionId session) {
      delegate.removeSession(session);
    }

    @Override
    public PushResult push(ProducerPush push) {
      return push(push, () -> delegate.push(push));
    }

    @Override
    public PushResult push(ProducerPush push, TransactionId transaction) {
      return push(push, () -> delegate.push(push, transaction));
    }

    private PushResult push(ProducerPush push, Supplier<PushResult> call) {
      check(cluster, PUSH, push.session().queue());
      PushCounts counts = pushes(cluster);
      PushResult result;
      try {
        result = call.get();
      } catch (YtException e) {
        if (e.hasCode(QueueProducerErrors.ZOMBIE_EPOCH)) {
          counts.fenced.incrementAndGet();
        }
        throw e;
      }
      counts.applied.incrementAndGet();
      counts.skippedRows.addAndGet(result.skippedRowCount());
      check(cluster, PUSHED, push.session().queue());
      return result;
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
