package io.ytstream.inmemory;

import com.google.common.base.Preconditions;
import com.google.common.collect.ImmutableList;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.CheckpointStore;
import io.ytstream.ports.ConsumerOffsets;
import io.ytstream.ports.OutputTables;
import io.ytstream.ports.QueueMetadata;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueProducers;
import io.ytstream.ports.QueueRangeReader;
import io.ytstream.ports.Row;
import io.ytstream.ports.StaticTableAppends;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.TableMetadata;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.TabletTransactions;
import io.ytstream.ports.TimeSource;
import io.ytstream.ports.TransactionId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * An in-memory YTsaurus cluster: every port with the semantics of the HTTP API reference (section
 * 7), plus an admin API (creating tables and consumers, registering, resharding, trimming) and a
 * {@link FaultInjector}.
 *
 * <p>Thread-safe: one lock guards the whole cluster, so each call is atomic. Deterministic when
 * driven from one thread with a {@link ManualClock}: timestamps, transaction ids and tablet choices
 * follow from the calls alone, and the wall clock is read only with {@link SystemTimeSource}.
 *
 * <p>Users: the ports act as the superuser {@code root}; {@link #asUser} gives a view of the same
 * cluster whose ports act as another user, and nodes carry ACLs ({@link #setAcl}). Only the queue
 * producer port checks permissions so far ({@link AccessControl} says how).
 */
public final class InMemoryCluster implements io.ytstream.ports.spi.YtCluster {

  private final ClusterState state;
  private final InMemoryQueueReader queueReader;
  private final QueueMetadata queueMetadata;
  private final ConsumerOffsets consumerOffsets;
  private final TabletTransactions transactions;
  private final OutputTables outputTables;
  private final TableMetadata tableMetadata;
  private final CheckpointStore checkpoints;
  private final InMemoryQueueProducers queueProducers;
  private final InMemoryStaticTableAppends staticTableAppends;
  private final StaticTableWrites staticTableWrites;
  private final String user;

  /** The built-in superuser the ports act as unless {@link #asUser} says otherwise. */
  public static final String ROOT_USER = AccessControl.ROOT;

  public InMemoryCluster(String name, TimeSource clock) {
    this(newState(name, clock), ROOT_USER);
  }

  private static ClusterState newState(String name, TimeSource clock) {
    // Core's rule for cluster names (no ':', '/' or white space), enforced by its value types.
    QueueId.of(name, "//");
    return new ClusterState(name, Preconditions.checkNotNull(clock, "clock"));
  }

  private InMemoryCluster(ClusterState state, String user) {
    this.state = state;
    this.user = user;
    this.queueReader = new InMemoryQueueReader(state, user);
    this.queueMetadata = new InMemoryQueueMetadata(state);
    this.consumerOffsets = new InMemoryConsumerOffsets(state, user);
    this.transactions = new InMemoryTabletTransactions(state, user);
    this.outputTables = new InMemoryOutputTables(state);
    this.tableMetadata = new InMemoryTableMetadata(state);
    this.checkpoints = new InMemoryCheckpointStore(state);
    this.queueProducers = new InMemoryQueueProducers(state, user);
    this.staticTableAppends = new InMemoryStaticTableAppends(state);
    this.staticTableWrites = new StaticTableWrites(state);
  }

  /** A cluster on the wall clock, for demos and Spark jobs. */
  public static InMemoryCluster withSystemClock(String name) {
    return new InMemoryCluster(name, SystemTimeSource.INSTANCE);
  }

  // ---- ports ----

  @Override
  public String name() {
    return state.name();
  }

  @Override
  public QueuePartitionReader queueReader() {
    return queueReader;
  }

  @Override
  public QueueRangeReader queueRangeReader() {
    return queueReader;
  }

  @Override
  public QueueMetadata queueMetadata() {
    return queueMetadata;
  }

  @Override
  public ConsumerOffsets consumerOffsets() {
    return consumerOffsets;
  }

  @Override
  public TabletTransactions transactions() {
    return transactions;
  }

  @Override
  public OutputTables outputTables() {
    return outputTables;
  }

  @Override
  public TableMetadata tableMetadata() {
    return tableMetadata;
  }

  @Override
  public CheckpointStore checkpoints() {
    return checkpoints;
  }

  @Override
  public QueueProducers queueProducers() {
    return queueProducers;
  }

  /**
   * {@code create_queue_producer_session} with the request's {@code mutation_id} (a GUID in
   * canonical form; empty when the request has none): a repeat of the creation that last wrote the
   * session, with the same id, answers the session as it is, its epoch not bumped. Acts as this
   * view's user.
   */
  public io.ytstream.ports.ProducerSession createProducerSession(
      io.ytstream.ports.ProducerSessionId session,
      java.util.Optional<Object> userMeta,
      java.util.Optional<String> mutationId) {
    return queueProducers.create(session, userMeta, mutationId);
  }

  @Override
  public StaticTableAppends staticTableAppends() {
    return staticTableAppends;
  }

  @Override
  public TimeSource time() {
    return state.clock();
  }

  /** The data lives as long as the object; closing a connection to it changes nothing. */
  @Override
  public void close() {}

  public FaultInjector faults() {
    return state.faults();
  }

  // ---- users and access control ----

  /**
   * This cluster's data seen by {@code user}: its ports act as that user (as a connection with that
   * user's token would), its admin API is this one's.
   */
  public InMemoryCluster asUser(String name) {
    Preconditions.checkArgument(
        name != null && !name.isBlank(), "a user name must not be blank, got \"%s\"", name);
    return name.equals(user) ? this : new InMemoryCluster(state, name);
  }

  /** The user this view's ports act as ({@link #ROOT_USER} unless made by {@link #asUser}). */
  public String user() {
    return user;
  }

  /** Makes {@code name} a superuser, whom no ACL restricts ({@code root} always is one). */
  public void addSuperuser(String name) {
    synchronized (state) {
      state.accessControl().addSuperuser(name);
    }
  }

  /** Sets the {@code acl} attribute of the node at {@code path} (which must exist). */
  public void setAcl(YPath path, List<AccessControlEntry> acl) {
    synchronized (state) {
      state.tree().resolve(path).setAcl(acl);
    }
  }

  /** The node's own {@code acl} attribute (not the inherited entries). */
  public List<AccessControlEntry> acl(YPath path) {
    synchronized (state) {
      return state.tree().resolve(path).acl();
    }
  }

  /** Sets {@code inherit_acl}: false makes the ancestors' entries stop applying to the node. */
  public void setInheritAcl(YPath path, boolean inherit) {
    synchronized (state) {
      state.tree().resolve(path).setInheritAcl(inherit);
    }
  }

  public boolean inheritAcl(YPath path) {
    synchronized (state) {
      return state.tree().resolve(path).inheritAcl();
    }
  }

  // ---- admin: nodes and tables ----

  /** Creates a map node and its missing parents; an existing map node is fine. */
  public void createMapNode(YPath path) {
    synchronized (state) {
      state.tree().createMapNodes(path);
    }
  }

  /** Creates an ordered table (a queue) with {@code tabletCount} empty tablets; parents too. */
  public void createOrderedTable(YPath path, List<Column> columns, int tabletCount) {
    createOrderedTable(path, columns, Collections.nCopies(checkTabletCount(tabletCount), 0L));
  }

  /**
   * Creates an ordered table whose tablet i starts at row {@code initialTrimmedRowCounts[i]}
   * (create-time {@code trimmed_row_counts}), so row indexes survive re-creating a queue.
   */
  public void createOrderedTable(
      YPath path, List<Column> columns, List<Long> initialTrimmedRowCounts) {
    checkTabletCount(initialTrimmedRowCounts.size());
    StoredSchema schema = StoredSchema.ordered(columns);
    synchronized (state) {
      state
          .tree()
          .add(
              path,
              new OrderedTable(
                  schema, ImmutableList.copyOf(initialTrimmedRowCounts), state.nowMillis()),
              true);
    }
  }

  /**
   * Creates an empty static table ({@code dynamic=false}) with a strict, unsorted schema; parents
   * too.
   */
  public void createStaticTable(YPath path, List<Column> columns) {
    StoredSchema schema = StaticTableWrites.staticSchema(columns);
    synchronized (state) {
      state.tree().add(path, new StaticTable(schema, state.nowMillis()), true);
    }
  }

  /** Whether {@code path} is a static table. */
  public boolean isStaticTable(YPath path) {
    synchronized (state) {
      return state.tree().find(path).orElse(null) instanceof StaticTable;
    }
  }

  /** The node's {@code @type} ({@code map_node}, {@code file}, {@code table}), if it exists. */
  public Optional<String> nodeType(YPath path) {
    synchronized (state) {
      return state.tree().find(path).map(CypressNode::typeName);
    }
  }

  /** The rows of a static table: a static table's {@code @row_count}, committed. */
  public long staticRowCount(YPath path) {
    synchronized (state) {
      return state.staticTable(path).rowCount();
    }
  }

  // ---- master transactions (served over HTTP by the emulator) ----

  /** The cluster's master transactions, which the emulator's commands and the port share. */
  public MasterTransactions masterTransactions() {
    return state.masterTransactions();
  }

  /**
   * {@code write_table} to a static table: appended or replacing its content, at once or staged in
   * the master transaction {@code transactionId}.
   */
  public void writeStaticTable(
      YPath path, Optional<String> transactionId, Iterator<Row> rows, boolean append) {
    staticTableWrites.write(path, transactionId, rows, append);
  }

  /** {@code read_table} of a static table, as the master transaction (or anybody) sees it. */
  public List<Row> readStaticTable(YPath path, Optional<String> transactionId) {
    return staticTableWrites.read(path, transactionId);
  }

  /**
   * The attributes set on a node with {@code set}, as the master transaction (or anybody) sees
   * them; values as JSON has them.
   */
  public Map<String, Object> userAttributes(YPath path, Optional<String> transactionId) {
    return staticTableWrites.attributes(path, transactionId);
  }

  /** {@code set} of an attribute: at once, or staged in the master transaction. */
  public void setUserAttribute(
      YPath path, String name, Object value, Optional<String> transactionId) {
    staticTableWrites.setAttribute(path, name, value, transactionId);
  }

  /** Creates a sorted table with one tablet; key columns are flagged and come first. */
  public void createSortedTable(YPath path, List<Column> columns) {
    StoredSchema schema = StoredSchema.sorted(columns);
    synchronized (state) {
      state.tree().add(path, new SortedTable(schema, false, state.nowMillis()), true);
    }
  }

  /** Creates a consumer: a sorted table with the consumer schema and the consumer flag. */
  public void createConsumer(YPath path) {
    StoredSchema schema = ConsumerTableFormat.TABLE_SCHEMA;
    synchronized (state) {
      state.tree().add(path, new SortedTable(schema, true, state.nowMillis()), true);
    }
  }

  /**
   * Creates a queue producer: a sorted table with the session schema and the producer flag, ready
   * at once (the server's {@code create} of type {@code queue_producer} also mounts it, {@code
   * yt/yt/ytlib/queue_client/queue_producer_init.cpp}).
   */
  public void createQueueProducer(YPath path) {
    StoredSchema schema = ProducerTableFormat.TABLE_SCHEMA;
    synchronized (state) {
      state.tree().add(path, new SortedTable(schema, false, true, state.nowMillis()), true);
    }
  }

  /** Whether {@code path} is a table made by {@link #createQueueProducer}. */
  public boolean isQueueProducer(YPath path) {
    synchronized (state) {
      return state.tree().find(path).orElse(null) instanceof SortedTable table
          && table.isQueueProducer();
    }
  }

  /** Grows an ordered table to {@code tabletCount} tablets; shrinking is not supported. */
  public void reshard(YPath orderedTable, int tabletCount) {
    synchronized (state) {
      OrderedTable table = state.orderedTable(orderedTable);
      Preconditions.checkArgument(
          tabletCount >= table.tabletCount(),
          "cannot shrink %s from %s to %s tablets: queues only grow",
          orderedTable,
          table.tabletCount(),
          tabletCount);
      table.growTo(tabletCount);
    }
  }

  /**
   * A producer's append to one tablet, in a transaction of its own: what {@code
   * OutputTables.append} does with rows carrying {@code $tablet_index = tablet}, for rows that do
   * not carry it (so a row already in schema order is stored as given, without a copy).
   */
  public void appendToTablet(YPath orderedTable, int tablet, List<Row> rows) {
    synchronized (state) {
      state
          .faults()
          .call(
              ClusterOperation.OUTPUT_APPEND,
              () -> {
                InMemoryTransaction transaction = InMemoryTransaction.startForOneCall(state);
                transaction.bufferInsertsToTablet(orderedTable, tablet, rows);
                transaction.commitNow();
                return null;
              },
              () -> {});
    }
  }

  /** {@code trim_rows}: absolute ({@code max(old, new)}); past the end is an error. */
  public void trimRows(YPath queue, int tablet, long trimmedRowCount) {
    synchronized (state) {
      state.trimRows(queue, tablet, trimmedRowCount);
    }
  }

  /** Bounds of every partition, as {@code QueueMetadata.partitions} returns them. */
  public List<PartitionBounds> partitions(YPath queue) {
    synchronized (state) {
      return bounds(state.orderedTable(queue));
    }
  }

  /**
   * Data of the rows of one tablet of an ordered table from {@code fromRow} on (trimmed skipped).
   */
  public List<Row> rows(YPath orderedTable, int tablet, long fromRow) {
    synchronized (state) {
      List<Row> rows = new ArrayList<>();
      for (StoredQueueRow row :
          state.tablet(orderedTable, tablet).read(fromRow, Integer.MAX_VALUE)) {
        rows.add(row.data());
      }
      return rows;
    }
  }

  /**
   * The present rows of a sorted table whose newest version was committed after {@code timestamp},
   * in key order, so a checker can follow a table without reading it whole. Deleted keys are not
   * listed: compare {@link #rowCount} with what you hold to notice deletions.
   */
  public List<Row> rowsCommittedAfter(YPath sortedTable, long timestamp) {
    synchronized (state) {
      return state.sortedTable(sortedTable).latestRowsCommittedAfter(timestamp);
    }
  }

  /**
   * The commit timestamp of the newest write to a sorted table (deletions included), or {@code
   * Long.MIN_VALUE}: unchanged means every read of it returns what it returned before.
   */
  public long lastWriteTimestamp(YPath sortedTable) {
    synchronized (state) {
      return state.sortedTable(sortedTable).lastWriteTimestamp();
    }
  }

  /** How many rows {@code OutputTables.readAll} would return for a sorted table. */
  public int rowCount(YPath sortedTable) {
    synchronized (state) {
      return state.sortedTable(sortedTable).liveRowCount();
    }
  }

  /** The newest timestamp issued: every later commit is after it. */
  public long lastTimestamp() {
    synchronized (state) {
      return state.timestamps().last();
    }
  }

  public boolean exists(YPath path) {
    synchronized (state) {
      return state.tree().find(path).isPresent();
    }
  }

  // ---- admin: client-side advances ----

  /**
   * A client-side consumer advance ({@code advance_queue_consumer} with {@code client_side=%true},
   * the official Python client's default; {@code yt/yt/client/driver/queue_commands.cpp}): the
   * consumer row is written in {@code transaction} when given, else in a transaction of its own,
   * with the {@code old_offset} check but neither the read nor the registration check of the
   * server-side advance ({@code yt/yt/client/api/queue_transaction_mixin.cpp}).
   */
  public void advanceConsumerClientSide(
      Optional<TabletTransaction> transaction,
      ConsumerId consumer,
      PartitionId partition,
      OptionalLong oldOffset,
      long newOffset) {
    if (transaction.isPresent()) {
      if (!(transaction.get() instanceof InMemoryTransaction own)) {
        throw new IllegalArgumentException("not a transaction of this cluster");
      }
      own.advanceConsumerClientSide(consumer, partition, oldOffset, newOffset);
      return;
    }
    synchronized (state) {
      InMemoryTransaction own = InMemoryTransaction.startForOneCall(state);
      own.bufferAdvance(AccessControl.ROOT, consumer, partition, oldOffset, newOffset, false);
      own.commitNow();
    }
  }

  // ---- admin: registrations ----

  /** {@code register_queue_consumer}: both must exist; registering again updates {@code vital}. */
  public void registerConsumer(YPath queue, YPath consumer, boolean vital) {
    synchronized (state) {
      state.orderedTable(queue);
      state.consumerTable(consumer);
      state.registrations().register(queue, consumer, vital);
    }
  }

  /** Returns false when there was no such registration. */
  public boolean unregisterConsumer(YPath queue, YPath consumer) {
    synchronized (state) {
      return state.registrations().unregister(queue, consumer);
    }
  }

  /** {@code list_queue_consumer_registrations}, sorted by queue then consumer. */
  public List<ConsumerRegistration> registrations() {
    synchronized (state) {
      return state.registrations().list();
    }
  }

  // ---- admin: transactions and limits ----

  /** Ids of transactions in the sticky pool (started, not finished, not yet seen expired). */
  public List<TransactionId> liveTransactions() {
    synchronized (state) {
      return state.transactions().liveIds();
    }
  }

  /** {@code max_rows_per_transaction}, counted per tablet; default 100,000. */
  public void setMaxRowsPerTabletPerTransaction(int limit) {
    synchronized (state) {
      state.setMaxRowsPerTabletPerTransaction(limit);
    }
  }

  public int maxRowsPerTabletPerTransaction() {
    synchronized (state) {
      return state.maxRowsPerTabletPerTransaction();
    }
  }

  /**
   * Caps every pull at {@code limit} rows, whatever the caller asks for, to exercise short reads (a
   * real tablet node stops at a store boundary or a response cap).
   */
  public void setMaxRowsPerPull(int limit) {
    synchronized (state) {
      state.setMaxRowsPerPull(limit);
    }
  }

  static List<PartitionBounds> bounds(OrderedTable table) {
    List<PartitionBounds> result = new ArrayList<>(table.tabletCount());
    for (int i = 0; i < table.tabletCount(); i++) {
      OrderedTablet tablet = table.tablet(i);
      result.add(new PartitionBounds(i, tablet.trimmedRowCount(), tablet.totalRowCount()));
    }
    return List.copyOf(result);
  }

  private static int checkTabletCount(int tabletCount) {
    Preconditions.checkArgument(tabletCount > 0, "tablet count must be > 0, got %s", tabletCount);
    return tabletCount;
  }

  @Override
  public String toString() {
    return "InMemoryCluster[" + state.name() + (user.equals(ROOT_USER) ? "" : " as " + user) + "]";
  }
}
