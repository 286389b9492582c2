package io.ytstream.simulation;

import io.ytstream.core.error.CommitOutcomeUnknownException;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.CheckpointStore;
import io.ytstream.ports.ConsumerOffsets;
import io.ytstream.ports.MasterTransaction;
import io.ytstream.ports.NodeStatus;
import io.ytstream.ports.OutputTables;
import io.ytstream.ports.ProducerPush;
import io.ytstream.ports.ProducerSession;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.PushResult;
import io.ytstream.ports.QueueMetadata;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueProducers;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.StaticTableAppends;
import io.ytstream.ports.TableNodeSchema;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.TabletTransactions;
import io.ytstream.ports.TransactionId;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.ObjIntConsumer;
import java.util.function.Supplier;

/**
 * The ports as the protocol sees them, with the schedule's cluster-side faults injected: transient
 * proxy errors (503, nothing applied) on any call, and on transaction commits a lock conflict
 * (1700, nothing applied) or an outcome reported as unknown after the commit was applied. Queue
 * producer pushes in a tablet transaction of their own get the same two faults, pushes inside a
 * share's transaction an answer lost after the push landed, and both two of their own: the request
 * lost before it reached the server (nothing applied, outcome unknown to the writer), and another
 * writer creating the session just before the push, so the server fences it (3102) or, inside a
 * transaction started earlier, the commit meets the session row's lock (1700). Master transactions
 * ({@link #staticTables}) get the transient errors on every call and, at a commit, the request lost
 * (nothing applied) or the answer lost (applied). Wrapping keeps the in-memory cluster's own
 * semantics untouched: every producer error the writer sees is the cluster's answer, or a transport
 * failure.
 */
final class FaultyPorts
    implements QueuePartitionReader,
        QueueMetadata,
        ConsumerOffsets,
        TabletTransactions,
        OutputTables,
        CheckpointStore,
        QueueProducers {

  private final SimCluster cluster;
  private final FaultClock faults;

  /** What runs when {@link SimFault#INTERLEAVE} fires; null while only one driver is live. */
  private IntConsumer interleave;

  /** Rows of the pushes answered so far that the cluster skipped as already written. */
  private long skippedPushRows;

  /** Hears the size of every write request to a table or queue (the checker's chunk bound). */
  private ObjIntConsumer<String> onWrite = (call, rows) -> {};

  /** Every tablet transaction started through these ports, in order. */
  private final List<TransactionId> started = new ArrayList<>();

  /** The transactions someone asked to abort (whether or not the request got through). */
  private final Set<String> abortAsked = new TreeSet<>();

  /** Hears a commit the cluster refused for too many rows in a tablet. */
  private Consumer<YtException> onTooManyRows = e -> {};

  /** Whether calls now are the live driver's, outside tasks ({@link SimFault#QUERY_STOPPED}). */
  private boolean driverCalls;

  /** Whether {@link SimFault#TASK_KILLED} fired since the last {@link #takeTaskKill}. */
  private boolean taskKilled;

  /** Whether {@link SimFault#QUERY_STOPPED} fired since the last {@link #takeStop}. */
  private boolean stopped;

  /** What runs when {@link SimFault#STALLED_ADVANCE} fires; null while a zombie runs. */
  private TakeOver stall;

  /** A new driver taking over while the current one's consumer advance is on the wire. */
  @FunctionalInterface
  interface TakeOver {
    /** Runs the new driver; {@code request} says which advance is held, for the trace. */
    void run(int arg, String request);
  }

  private final StaticTableAppends staticTables = new StaticTables();

  FaultyPorts(SimCluster cluster, FaultClock faults) {
    this.cluster = cluster;
    this.faults = faults;
  }

  /**
   * The static table appends, faulty as the rest (a separate object: its {@code start} and {@code
   * attach} return master transactions, the tablet ones' tablet transactions).
   */
  StaticTableAppends staticTables() {
    return staticTables;
  }

  /**
   * Sets what runs, with the fault's arg, when {@link SimFault#INTERLEAVE} fires at a call (null:
   * no second driver to interleave with, and the fault's event is not counted).
   */
  void interleaveWith(IntConsumer other) {
    this.interleave = other;
  }

  /**
   * Sets what runs, with the fault's arg, when {@link SimFault#STALLED_ADVANCE} fires at a consumer
   * advance, after the request reached the proxy and before it is applied (null: the live driver's
   * advances are not counted, as while a zombie runs).
   */
  void stallWith(TakeOver takeOver) {
    this.stall = takeOver;
  }

  /** Sets who hears the number of rows of each write request (insert, upsert, push). */
  void onWrite(ObjIntConsumer<String> listener) {
    this.onWrite = listener;
  }

  /** Sets who hears of a commit the cluster refused for too many rows in one tablet. */
  void onTooManyRows(Consumer<YtException> listener) {
    this.onTooManyRows = listener;
  }

  /** How many transactions were started so far (a mark for {@link #startedSince}). */
  int startedCount() {
    return started.size();
  }

  /** The transactions started since {@code mark}. */
  List<TransactionId> startedSince(int mark) {
    return List.copyOf(started.subList(mark, started.size()));
  }

  /** Whether {@code transaction} is still open on the cluster and nobody asked to abort it. */
  boolean leftOpen(TransactionId transaction) {
    return !abortAsked.contains(transaction.value()) && cluster.transactionLive(transaction);
  }

  /** A consumer advance is on the wire: the driver may stall here while another takes over. */
  private void advanceInFlight(
      String call, PartitionId partition, OptionalLong oldOffset, long newOffset) {
    TakeOver takeOver = stall;
    if (takeOver != null) {
      int arg = faults.tick(SimFault.STALLED_ADVANCE);
      if (arg >= 0) {
        stall = null; // the new driver's own advances do not stall
        takeOver.run(
            arg,
            call
                + "("
                + partition
                + ", old_offset "
                + (oldOffset.isPresent() ? Long.toString(oldOffset.getAsLong()) : "omitted")
                + ", new_offset "
                + newOffset
                + ")");
      }
    }
  }

  /**
   * Sets whether the calls from now on are the live driver's, outside tasks: only those can meet
   * {@link SimFault#QUERY_STOPPED}. Returns the setting it replaces, for the caller to put back.
   */
  boolean driverCalls(boolean live) {
    boolean before = driverCalls;
    driverCalls = live;
    return before;
  }

  /** Whether {@link SimFault#QUERY_STOPPED} fired since the last call; resets it. */
  boolean takeStop() {
    boolean fired = stopped;
    stopped = false;
    return fired;
  }

  private void call(String what) {
    refuseIfInterrupted(what);
    IntConsumer other = interleave;
    if (other != null) {
      int arg = faults.tick(SimFault.INTERLEAVE);
      if (arg >= 0) {
        interleave = null; // the other driver's own calls do not interleave again
        try {
          other.accept(arg);
        } finally {
          interleave = other;
        }
      }
    }
    if (faults.fires(SimFault.PROXY_ERROR)) {
      throw new YtException(
          YtErrorCode.HTTP_SERVICE_UNAVAILABLE, "simulated proxy error in " + what);
    }
    if (driverCalls && faults.fires(SimFault.QUERY_STOPPED)) {
      stopped = true;
      Thread.currentThread().interrupt();
      refuseIfInterrupted(what);
    }
  }

  /**
   * A call on an interrupted thread fails before its request is sent, as {@code YtHttpClient}'s:
   * {@code HttpClient.send} throws {@link InterruptedException}, which the client rethrows as an
   * {@link UncheckedIOException} around an {@link InterruptedIOException}, the flag left set.
   */
  private static void refuseIfInterrupted(String what) {
    if (Thread.currentThread().isInterrupted()) {
      InterruptedIOException interrupted =
          new InterruptedIOException(what + " to the simulated proxy: interrupted");
      interrupted.initCause(new InterruptedException());
      throw new UncheckedIOException(interrupted.getMessage(), interrupted);
    }
  }

  /**
   * A write that commits a transaction of its own: it can meet a lock conflict (nothing applied) or
   * an unknown outcome (applied, response lost), like a batch transaction's commit.
   */
  private void ownTransaction(Runnable write) {
    ownTransaction(
        () -> {
          write.run();
          return null;
        });
  }

  private <T> T ownTransaction(Supplier<T> write) {
    if (faults.fires(SimFault.LOCK_CONFLICT)) {
      throw new YtException(YtErrorCode.TRANSACTION_LOCK_CONFLICT, "simulated row lock conflict");
    }
    if (faults.fires(SimFault.COMMIT_LOST)) {
      throw new CommitOutcomeUnknownException(
          "simulated connection reset while sending the commit (nothing was applied)", null);
    }
    boolean unknown = faults.fires(SimFault.COMMIT_UNKNOWN);
    T result = write.get();
    if (unknown) {
      throw new CommitOutcomeUnknownException(
          "simulated lost response (the write was applied)", null);
    }
    return result;
  }

  @Override
  public List<QueueRow> pull(ConsumerId consumer, PartitionId partition, long offset, int maxRows) {
    call("pull_queue_consumer");
    return cluster.ports().queueReader().pull(consumer, partition, offset, maxRows);
  }

  /** {@code pull_queue}: a read without a consumer (a static read's task). */
  List<QueueRow> pullWithoutConsumer(PartitionId partition, long offset, int maxRows) {
    call("pull_queue");
    return cluster.ports().queueRangeReader().pull(partition, offset, maxRows);
  }

  @Override
  public List<PartitionBounds> partitions(QueueId queue) {
    call("get_tablet_infos");
    return cluster.ports().queueMetadata().partitions(queue);
  }

  @Override
  public StreamOffsets read(ConsumerId consumer, QueueId queue) {
    call("read consumer");
    return cluster.ports().consumerOffsets().read(consumer, queue);
  }

  @Override
  public void advance(
      ConsumerId consumer, PartitionId partition, OptionalLong oldOffset, long newOffset) {
    call("advance_consumer");
    advanceInFlight("advance_consumer", partition, oldOffset, newOffset);
    ownTransaction(
        () -> cluster.ports().consumerOffsets().advance(consumer, partition, oldOffset, newOffset));
  }

  @Override
  public ProducerSession createSession(ProducerSessionId session) {
    call("create_queue_producer_session");
    return cluster.ports().queueProducers().createSession(session);
  }

  @Override
  public ProducerSession createSession(ProducerSessionId session, Object userMeta) {
    call("create_queue_producer_session");
    return cluster.ports().queueProducers().createSession(session, userMeta);
  }

  @Override
  public void removeSession(ProducerSessionId session) {
    call("remove_queue_producer_session");
    cluster.ports().queueProducers().removeSession(session);
  }

  /**
   * A push in a tablet transaction of its own: a lock conflict or an answer lost after the push
   * landed, as any one-call write; or the request lost before it landed; or a newer writer of the
   * session just before it, which the cluster itself fences.
   */
  @Override
  public PushResult push(ProducerPush push) {
    call("push_queue_producer");
    onWrite.accept("push_queue_producer", push.rows().size());
    if (faults.fires(SimFault.PUSH_REQUEST_LOST)) {
      throw new CommitOutcomeUnknownException(
          "simulated connection reset while sending push_queue_producer (nothing was applied)",
          null);
    }
    if (faults.fires(SimFault.SESSION_TAKEN_OVER)) {
      // What a retried task or a new driver does first: create the session, bumping its epoch.
      cluster.ports().queueProducers().createSession(push.session());
    }
    PushResult result = ownTransaction(() -> cluster.ports().queueProducers().push(push));
    skippedPushRows += result.skippedRowCount();
    return result;
  }

  /**
   * Whether {@link SimFault#TASK_KILLED} killed a task since the last call; resets it. The caller,
   * as Spark's executor does for its next task, clears the thread's interrupt flag.
   */
  boolean takeTaskKill() {
    boolean k = taskKilled;
    taskKilled = false;
    return k;
  }

  /** Rows of answered pushes that the cluster skipped because their sessions held them. */
  long skippedPushRows() {
    return skippedPushRows;
  }

  /**
   * A push inside an open tablet transaction (a producer share's chunk): the request lost before it
   * landed; or a newer writer of the session just before it (the cluster fences the push when the
   * transaction started after that, else the transaction's commit meets the session row's lock); or
   * the answer lost after the push landed in the transaction.
   */
  @Override
  public PushResult push(ProducerPush push, TransactionId transaction) {
    call("push_queue_producer in transaction");
    onWrite.accept("push_queue_producer in a transaction", push.rows().size());
    if (faults.fires(SimFault.PUSH_REQUEST_LOST)) {
      throw new CommitOutcomeUnknownException(
          "simulated connection reset while sending push_queue_producer in a transaction (nothing"
              + " was applied)",
          null);
    }
    if (faults.fires(SimFault.SESSION_TAKEN_OVER)) {
      cluster.ports().queueProducers().createSession(push.session());
    }
    int killed = faults.tick(SimFault.TASK_KILLED);
    if (killed >= 0) {
      // Spark kills the task while the push is on the wire: it lands or not, and the thread's
      // interrupt ends the call as the HTTP client ends it, the flag left set.
      if (killed % 2 == 0) {
        cluster.ports().queueProducers().push(push, transaction);
      }
      taskKilled = true;
      Thread.currentThread().interrupt();
      refuseIfInterrupted("push_queue_producer in a transaction");
    }
    boolean unknown = faults.fires(SimFault.COMMIT_UNKNOWN);
    PushResult result = cluster.ports().queueProducers().push(push, transaction);
    if (unknown) {
      throw new CommitOutcomeUnknownException(
          "simulated lost answer of push_queue_producer in a transaction (the push was applied)",
          null);
    }
    skippedPushRows += result.skippedRowCount();
    return result;
  }

  @Override
  public TabletTransaction start(Duration timeout) {
    call("start_transaction");
    TabletTransaction tx = cluster.ports().transactions().start(timeout);
    started.add(tx.id());
    return new Tx(tx);
  }

  @Override
  public TabletTransaction attach(TransactionId id) {
    call("attach_transaction");
    return new Tx(cluster.ports().transactions().attach(id));
  }

  @Override
  public void append(YPath orderedTable, List<Row> rows) {
    call("insert_rows");
    if (orderedTable.equals(Workload.OUTPUT)) {
      onWrite.accept("insert_rows", rows.size());
    }
    ownTransaction(() -> cluster.ports().outputTables().append(orderedTable, rows));
  }

  @Override
  public void upsert(YPath sortedTable, List<Row> rows) {
    call("insert_rows");
    if (sortedTable.equals(Workload.OUTPUT)) {
      onWrite.accept("insert_rows (upsert)", rows.size());
    }
    ownTransaction(() -> cluster.ports().outputTables().upsert(sortedTable, rows));
  }

  @Override
  public List<Row> readAll(YPath table) {
    call("select_rows");
    return cluster.ports().outputTables().readAll(table);
  }

  @Override
  public void createDirectories(YPath directory) {
    call("create");
    cluster.ports().checkpoints().createDirectories(directory);
  }

  @Override
  public void writeFile(YPath file, byte[] content, boolean overwrite) {
    call("write_file");
    cluster.ports().checkpoints().writeFile(file, content, overwrite);
  }

  @Override
  public byte[] readFile(YPath file) {
    call("read_file");
    return cluster.ports().checkpoints().readFile(file);
  }

  @Override
  public void rename(YPath source, YPath target) {
    call("move");
    cluster.ports().checkpoints().rename(source, target);
  }

  @Override
  public List<String> list(YPath directory) {
    call("list");
    return cluster.ports().checkpoints().list(directory);
  }

  @Override
  public boolean delete(YPath node, boolean recursive) {
    call("remove");
    return cluster.ports().checkpoints().delete(node, recursive);
  }

  @Override
  public Optional<NodeStatus> status(YPath node) {
    call("get");
    return cluster.ports().checkpoints().status(node);
  }

  /** A transaction whose calls can fail, and whose commit can conflict or go unknown. */
  private final class Tx implements TabletTransaction {
    private final TabletTransaction delegate;

    Tx(TabletTransaction delegate) {
      this.delegate = delegate;
    }

    @Override
    public TransactionId id() {
      return delegate.id();
    }

    @Override
    public void insertRows(YPath table, List<Row> rows) {
      call("insert_rows");
      if (table.equals(Workload.OUTPUT)) {
        onWrite.accept("insert_rows in the batch transaction", rows.size());
      }
      delegate.insertRows(table, rows);
    }

    @Override
    public void deleteRows(YPath table, List<Row> keys) {
      call("delete_rows");
      delegate.deleteRows(table, keys);
    }

    @Override
    public StreamOffsets readConsumer(ConsumerId consumer, QueueId queue) {
      call("read consumer in transaction");
      return delegate.readConsumer(consumer, queue);
    }

    @Override
    public void advanceConsumer(
        ConsumerId consumer, PartitionId partition, OptionalLong oldOffset, long newOffset) {
      call("advance_consumer in transaction");
      advanceInFlight("advance_consumer in transaction", partition, oldOffset, newOffset);
      delegate.advanceConsumer(consumer, partition, oldOffset, newOffset);
    }

    @Override
    public void ping() {
      call("ping_transaction");
      delegate.ping();
    }

    @Override
    public void commit() {
      call("commit_transaction");
      if (faults.fires(SimFault.LOCK_CONFLICT)) {
        delegate.abort();
        throw new YtException(
            YtErrorCode.TRANSACTION_LOCK_CONFLICT, "simulated row lock conflict at commit");
      }
      if (faults.fires(SimFault.COMMIT_LOST)) {
        // The transaction stays open on the cluster until the writer aborts it or it expires.
        throw new CommitOutcomeUnknownException(
            "simulated connection reset while sending commit_transaction (nothing was applied)",
            null);
      }
      boolean unknown = faults.fires(SimFault.COMMIT_UNKNOWN);
      try {
        delegate.commit();
      } catch (YtException e) {
        if (e.hasCode(YtErrorCode.TOO_MANY_ROWS_IN_TRANSACTION)) {
          onTooManyRows.accept(e);
        }
        throw e;
      }
      if (unknown) {
        throw new CommitOutcomeUnknownException(
            "simulated lost commit response (the commit was applied)", null);
      }
    }

    @Override
    public void abort() {
      abortAsked.add(delegate.id().value());
      refuseIfInterrupted("abort_transaction");
      delegate.abort();
    }
  }

  private final class StaticTables implements StaticTableAppends {
    @Override
    public MasterTransaction start(Duration timeout) {
      call("start_transaction");
      return new MasterTx(cluster.ports().staticTableAppends().start(timeout));
    }

    @Override
    public MasterTransaction attach(TransactionId id) {
      return new MasterTx(cluster.ports().staticTableAppends().attach(id));
    }

    @Override
    public Optional<Object> attribute(YPath table, String name) {
      call("get");
      return cluster.ports().staticTableAppends().attribute(table, name);
    }

    @Override
    public List<Row> readAll(YPath table) {
      call("read_table");
      return cluster.ports().staticTableAppends().readAll(table);
    }

    @Override
    public TableNodeSchema describe(YPath table) {
      call("get");
      return cluster.ports().staticTableAppends().describe(table);
    }
  }

  /** A master transaction whose calls can fail, and whose commit can be lost either way. */
  private final class MasterTx implements MasterTransaction {
    private final MasterTransaction delegate;

    MasterTx(MasterTransaction delegate) {
      this.delegate = delegate;
    }

    @Override
    public TransactionId id() {
      return delegate.id();
    }

    @Override
    public MasterTransaction startNested(Duration timeout) {
      call("start_transaction");
      return new MasterTx(delegate.startNested(timeout));
    }

    @Override
    public void append(YPath table, Iterator<Row> rows) {
      call("write_table");
      List<Row> chunk = new ArrayList<>();
      rows.forEachRemaining(chunk::add);
      if (table.equals(Workload.OUTPUT)) {
        onWrite.accept("write_table", chunk.size());
      }
      delegate.append(table, chunk.iterator());
    }

    @Override
    public List<Row> readAll(YPath table) {
      call("read_table");
      return delegate.readAll(table);
    }

    @Override
    public Optional<Object> attribute(YPath table, String name) {
      call("get");
      return delegate.attribute(table, name);
    }

    @Override
    public void setAttribute(YPath table, String name, Object value) {
      call("set");
      delegate.setAttribute(table, name, value);
    }

    @Override
    public void ping() {
      call("ping_transaction");
      delegate.ping();
    }

    @Override
    public void commit() {
      call("commit_transaction");
      if (faults.fires(SimFault.COMMIT_LOST)) {
        throw new CommitOutcomeUnknownException(
            "simulated connection reset while sending commit_transaction (nothing was applied)",
            null);
      }
      boolean unknown = faults.fires(SimFault.COMMIT_UNKNOWN);
      delegate.commit();
      if (unknown) {
        throw new CommitOutcomeUnknownException(
            "simulated lost commit response (the commit was applied)", null);
      }
    }

    @Override
    public void abort() {
      abortAsked.add(delegate.id().value());
      refuseIfInterrupted("abort_transaction");
      delegate.abort();
    }
  }
}
