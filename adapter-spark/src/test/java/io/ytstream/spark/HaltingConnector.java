package io.ytstream.spark;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.CheckpointStore;
import io.ytstream.ports.ConsumerOffsets;
import io.ytstream.ports.OutputTables;
import io.ytstream.ports.ProducerPush;
import io.ytstream.ports.ProducerSession;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.PushResult;
import io.ytstream.ports.QueueMetadata;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueProducers;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableMetadata;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.TabletTransactions;
import io.ytstream.ports.TimeSource;
import io.ytstream.ports.TransactionId;
import io.ytstream.ports.spi.ClusterConnector;
import io.ytstream.ports.spi.ClusterConnectors;
import io.ytstream.ports.spi.ConnectionSettings;
import io.ytstream.ports.spi.YtCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;

/**
 * Test-only connector for {@code halting:<n>:<marker file>|<address>}: the cluster at {@code
 * <address>} (any adapter), except that an executor JVM halts ({@link Runtime#halt}, no shutdown
 * hooks, no cleanup: a lost executor) right after its {@code n}-th insert into one attached
 * transaction — part-way through a writer's rows. It halts once across all JVMs of the test: the
 * first JVM to create the marker file halts, later ones go on. The driver never halts.
 *
 * <p>{@code halting:push:<n>:<marker file>|<address>} halts instead right after the {@code n}-th
 * queue producer push of one connection (one writer task) was applied, before its answer reached
 * the writer: the rows are in the queue and no one was told.
 */
public final class HaltingConnector implements ClusterConnector {

  static final String PREFIX = "halting:";

  private static final String PUSH = "push:";

  static String address(int insertsBeforeHalt, Path marker, String address) {
    return PREFIX + insertsBeforeHalt + ":" + marker.toAbsolutePath() + "|" + address;
  }

  /** Halts an executor after the {@code pushesBeforeHalt}-th push of a connection applied. */
  static String afterPush(int pushesBeforeHalt, Path marker, String address) {
    return PREFIX + PUSH + pushesBeforeHalt + ":" + marker.toAbsolutePath() + "|" + address;
  }

  @Override
  public String name() {
    return "halting";
  }

  @Override
  public String addressForms() {
    return "halting:<n>:<marker file>|<address> (tests only: an executor halts after n inserts)";
  }

  @Override
  public boolean accepts(String address) {
    return address != null && address.startsWith(PREFIX) && address.contains("|");
  }

  @Override
  public YtCluster connect(String address, ConnectionSettings settings) {
    String spec = address.substring(PREFIX.length(), address.indexOf('|'));
    boolean pushes = spec.startsWith(PUSH);
    if (pushes) {
      spec = spec.substring(PUSH.length());
    }
    int colon = spec.indexOf(':');
    int count = Integer.parseInt(spec.substring(0, colon));
    Path marker = Path.of(spec.substring(colon + 1));
    YtCluster delegate =
        ClusterConnectors.connect(
            address.substring(address.indexOf('|') + 1),
            settings,
            HaltingConnector.class.getClassLoader());
    return pushes
        ? new Cluster(delegate, Integer.MAX_VALUE, count, marker)
        : new Cluster(delegate, count, Integer.MAX_VALUE, marker);
  }

  /** Halts this executor JVM when it is an executor and the first to claim the marker. */
  private static void haltOnce(Path marker, String why) {
    if (onExecutor() && claim(marker)) {
      System.err.println(
          "HaltingConnector: halting executor " + SparkEnv.get().executorId() + " " + why);
      Runtime.getRuntime().halt(57);
    }
  }

  /** Inside a task on an executor, never in the driver (the test's own JVM). */
  private static boolean onExecutor() {
    SparkEnv env = SparkEnv.get();
    return TaskContext.get() != null && env != null && !"driver".equals(env.executorId());
  }

  private static boolean claim(Path marker) {
    try {
      Files.createFile(marker);
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static final class Cluster implements YtCluster {
    private final YtCluster delegate;
    private final int insertsBeforeHalt;
    private final int pushesBeforeHalt;
    private final Path marker;
    private final AtomicInteger pushes = new AtomicInteger();

    Cluster(YtCluster delegate, int insertsBeforeHalt, int pushesBeforeHalt, Path marker) {
      this.delegate = delegate;
      this.insertsBeforeHalt = insertsBeforeHalt;
      this.pushesBeforeHalt = pushesBeforeHalt;
      this.marker = marker;
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
      TabletTransactions transactions = delegate.transactions();
      return new TabletTransactions() {
        @Override
        public TabletTransaction start(Duration timeout) {
          return transactions.start(timeout);
        }

        @Override
        public TabletTransaction attach(TransactionId id) {
          return new Halting(transactions.attach(id), insertsBeforeHalt, marker);
        }
      };
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
      return delegate.checkpoints();
    }

    @Override
    public TimeSource time() {
      return delegate.time();
    }

    @Override
    public QueueProducers queueProducers() {
      QueueProducers producers = delegate.queueProducers();
      return new QueueProducers() {
        @Override
        public ProducerSession createSession(ProducerSessionId session) {
          return producers.createSession(session);
        }

        @Override
        public ProducerSession createSession(ProducerSessionId session, Object userMeta) {
          return producers.createSession(session, userMeta);
        }

        @Override
        public void removeSession(ProducerSessionId session) {
          producers.removeSession(session);
        }

        @Override
        public PushResult push(ProducerPush push) {
          return pushed(producers.push(push), push);
        }

        @Override
        public PushResult push(ProducerPush push, TransactionId transaction) {
          return pushed(producers.push(push, transaction), push);
        }
      };
    }

    private PushResult pushed(PushResult result, ProducerPush push) {
      int n = pushes.incrementAndGet();
      if (n == pushesBeforeHalt) {
        haltOnce(
            marker,
            "after push "
                + n
                + " ("
                + push.rows().size()
                + " rows through "
                + push.session()
                + ") applied, before its answer");
      }
      return result;
    }

    @Override
    public void close() {
      delegate.close();
    }
  }

  private static final class Halting implements TabletTransaction {
    private final TabletTransaction delegate;
    private final int insertsBeforeHalt;
    private final Path marker;
    private int inserts;

    Halting(TabletTransaction delegate, int insertsBeforeHalt, Path marker) {
      this.delegate = delegate;
      this.insertsBeforeHalt = insertsBeforeHalt;
      this.marker = marker;
    }

    @Override
    public TransactionId id() {
      return delegate.id();
    }

    @Override
    public void insertRows(YPath table, List<Row> rows) {
      delegate.insertRows(table, rows);
      inserts++;
      if (inserts == insertsBeforeHalt) {
        haltOnce(marker, "after " + inserts + " inserts into " + delegate.id());
      }
    }

    @Override
    public void deleteRows(YPath table, List<Row> keys) {
      delegate.deleteRows(table, keys);
    }

    @Override
    public StreamOffsets readConsumer(ConsumerId consumer, QueueId queue) {
      return delegate.readConsumer(consumer, queue);
    }

    @Override
    public void advanceConsumer(
        ConsumerId consumer, PartitionId partition, OptionalLong oldOffset, long newOffset) {
      delegate.advanceConsumer(consumer, partition, oldOffset, newOffset);
    }

    @Override
    public void ping() {
      delegate.ping();
    }

    @Override
    public void commit() {
      delegate.commit();
    }

    @Override
    public void abort() {
      delegate.abort();
    }
  }
}
