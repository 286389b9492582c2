package io.ytstream.inmemory;

import com.google.common.base.Preconditions;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.TimeSource;

/**
 * Everything one in-memory cluster holds, shared by its port implementations. The object itself is
 * the cluster's single lock: every port call runs while holding it, which makes the cluster
 * thread-safe (Spark runs executors as threads) and makes each call one atomic step.
 */
final class ClusterState {

  static final int DEFAULT_MAX_ROWS_PER_TABLET_PER_TRANSACTION = 100_000;

  private final String name;
  private final TimeSource clock;
  private final CypressTree tree;
  private final TimestampGenerator timestamps;
  private final Registrations registrations = new Registrations();
  private final TransactionRegistry transactions = new TransactionRegistry();
  private final AccessControl accessControl = new AccessControl();
  private final FaultInjector faults;
  private final MasterTransactions masterTransactions;

  private int maxRowsPerTabletPerTransaction = DEFAULT_MAX_ROWS_PER_TABLET_PER_TRANSACTION;
  private int maxRowsPerPull = Integer.MAX_VALUE;

  ClusterState(String name, TimeSource clock) {
    this.name = name;
    this.clock = clock;
    this.tree = new CypressTree(clock);
    this.timestamps = new TimestampGenerator(clock);
    this.faults = new FaultInjector(this);
    this.masterTransactions = new MasterTransactions(this, clock);
  }

  MasterTransactions masterTransactions() {
    return masterTransactions;
  }

  String name() {
    return name;
  }

  TimeSource clock() {
    return clock;
  }

  long nowMillis() {
    return clock.nowMillis();
  }

  CypressTree tree() {
    return tree;
  }

  TimestampGenerator timestamps() {
    return timestamps;
  }

  AccessControl accessControl() {
    return accessControl;
  }

  Registrations registrations() {
    return registrations;
  }

  TransactionRegistry transactions() {
    return transactions;
  }

  FaultInjector faults() {
    return faults;
  }

  int maxRowsPerTabletPerTransaction() {
    return maxRowsPerTabletPerTransaction;
  }

  void setMaxRowsPerTabletPerTransaction(int limit) {
    Preconditions.checkArgument(limit > 0, "row limit must be > 0, got %s", limit);
    maxRowsPerTabletPerTransaction = limit;
  }

  int maxRowsPerPull() {
    return maxRowsPerPull;
  }

  void setMaxRowsPerPull(int limit) {
    Preconditions.checkArgument(limit > 0, "pull limit must be > 0, got %s", limit);
    maxRowsPerPull = limit;
  }

  TableNode table(YPath path) {
    CypressNode node = tree.resolve(path);
    if (!(node instanceof TableNode table)) {
      throw ClusterErrors.generic(
          "Node " + path.value() + " is a " + node.typeName() + ", not a dynamic table");
    }
    return table;
  }

  /** A static table; 500 when missing, an error naming the type when the node is another. */
  StaticTable staticTable(YPath path) {
    CypressNode node = tree.resolve(path);
    if (!(node instanceof StaticTable table)) {
      throw ClusterErrors.generic(
          "Node "
              + path.value()
              + (node instanceof TableNode
                  ? " is a dynamic table; write_table appends to static tables only"
                  : " is a " + node.typeName() + ", not a static table"));
    }
    return table;
  }

  OrderedTable orderedTable(YPath path) {
    TableNode table = table(path);
    if (!(table instanceof OrderedTable ordered)) {
      throw ClusterErrors.generic(
          "Table " + path.value() + " is sorted; an ordered table is required");
    }
    return ordered;
  }

  SortedTable sortedTable(YPath path) {
    TableNode table = table(path);
    if (!(table instanceof SortedTable sorted)) {
      throw ClusterErrors.generic(
          "Table " + path.value() + " is ordered; a sorted table is required");
    }
    return sorted;
  }

  SortedTable consumerTable(YPath path) {
    SortedTable table = sortedTable(path);
    if (!table.isQueueConsumer()) {
      throw ClusterErrors.generic(
          "Table " + path.value() + " is not a queue consumer (no @treat_as_queue_consumer)");
    }
    return table;
  }

  /**
   * A queue producer: the server takes any sorted table whose rows it can read as sessions ({@code
   * yt/yt/client/driver/queue_commands.cpp} checks only that it is sorted), so the key is checked.
   */
  SortedTable producerTable(YPath path) {
    SortedTable table = sortedTable(path);
    if (!table.schema().keyColumns().equals(ProducerTableFormat.TABLE_SCHEMA.keyColumns())) {
      throw ClusterErrors.generic(
          "Table "
              + path.value()
              + " is not a queue producer: its key is not (queue_cluster, queue_path, session_id);"
              + " create it with type queue_producer");
    }
    return table;
  }

  /** This adapter reaches one cluster; a queue named on another one is a caller mistake. */
  void checkLocal(QueueId queue) {
    if (!queue.cluster().equals(name)) {
      throw new IllegalArgumentException(
          "queue " + queue + " is on cluster " + queue.cluster() + ", but this is cluster " + name);
    }
  }

  void checkLocal(ConsumerId consumer) {
    if (!consumer.cluster().equals(name)) {
      throw new IllegalArgumentException(
          "consumer "
              + consumer
              + " is on cluster "
              + consumer.cluster()
              + ", but this is cluster "
              + name);
    }
  }

  OrderedTablet tablet(YPath queue, int tabletIndex) {
    OrderedTable table = orderedTable(queue);
    if (tabletIndex < 0 || tabletIndex >= table.tabletCount()) {
      throw ClusterErrors.generic(
          "Invalid tablet index "
              + tabletIndex
              + " for table "
              + queue.value()
              + ": expected a value in [0, "
              + table.tabletCount()
              + ")");
    }
    return table.tablet(tabletIndex);
  }

  /** Absolute trim ({@code max(old, new)}); trimming past the end is an error, as in YTsaurus. */
  void trimRows(YPath queue, int tabletIndex, long trimmedRowCount) {
    OrderedTablet tablet = tablet(queue, tabletIndex);
    if (trimmedRowCount > tablet.totalRowCount()) {
      throw ClusterErrors.generic(
          "Cannot trim tablet "
              + tabletIndex
              + " of "
              + queue.value()
              + " at row "
              + trimmedRowCount
              + " since it only has "
              + tablet.totalRowCount()
              + " row(s)");
    }
    tablet.trim(trimmedRowCount);
  }
}
