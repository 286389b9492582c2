package io.ytstream.inmemory;

import com.google.common.base.Preconditions;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.TransactionId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A tablet transaction. Reads see the snapshot at the start timestamp; writes are buffered and
 * applied atomically at commit, invisible until then (to this transaction too). Attaching by id
 * returns this same object, so the driver and executors share one transaction; every method takes
 * the cluster lock.
 *
 * <p>The lease: a transaction not used or pinged for its timeout expires on the cluster clock, and
 * every later use fails with 11000.
 */
final class InMemoryTransaction implements TabletTransaction {

  private final ClusterState cluster;
  private final long sequence;
  private final long startTimestamp;
  private final long timeoutMillis;

  /** In the sticky pool: attachable, and removed from it when finished. */
  private final boolean pooled;

  // The user whose calls this transaction carries: advances are checked as this user.
  private final String user;

  private final List<BufferedWrite> writes = new ArrayList<>();

  /**
   * Checks that run at commit, before anything is applied: the native client checks {@code write}
   * on every table a transaction modifies only when it commits ({@code
   * yt/yt/ytlib/api/native/transaction.cpp}, {@code TTableCommitSession::CheckPermissions}).
   */
  private final List<Runnable> commitChecks = new ArrayList<>();

  /**
   * Each producer session's number after this transaction's last push through it: a later push in
   * the same transaction is validated against it, not against the snapshot.
   */
  private final java.util.Map<io.ytstream.ports.ProducerSessionId, Long> producerNumbers =
      new java.util.HashMap<>();

  /**
   * Built on first use: a one-call transaction ({@code append}, {@code advance}) shows its id only
   * in an error, and formatting it for every call was a visible cost. Racy but safe: the id is a
   * value, and every thread builds the same one.
   */
  private TransactionId id;

  private long lastUsedMillis;
  private TransactionState state = TransactionState.ACTIVE;

  private InMemoryTransaction(
      ClusterState cluster, long timeoutMillis, boolean pooled, String user) {
    this.cluster = cluster;
    this.timeoutMillis = timeoutMillis;
    this.pooled = pooled;
    this.user = user;
    this.startTimestamp = cluster.timestamps().next();
    // Every transaction takes a sequence number, so ids do not depend on which ids were shown.
    this.sequence = cluster.transactions().nextSequence();
    this.lastUsedMillis = cluster.nowMillis();
  }

  /** A transaction in the sticky pool, reachable by {@link TransactionRegistry#attach}. */
  static InMemoryTransaction start(ClusterState cluster, Duration timeout, String user) {
    Preconditions.checkArgument(
        !timeout.isNegative() && !timeout.isZero(), "timeout must be > 0, got %s", timeout);
    // Abandoned transactions (a crashed executor's) must not pin old row versions forever.
    cluster.transactions().expireLapsed();
    InMemoryTransaction transaction =
        new InMemoryTransaction(cluster, timeout.toMillis(), true, user);
    cluster.transactions().add(transaction);
    return transaction;
  }

  /**
   * A transaction for one port call that commits before the cluster lock is released ({@code
   * advance}, {@code append}, {@code upsert}), so it is never pooled and cannot expire.
   */
  static InMemoryTransaction startForOneCall(ClusterState cluster) {
    return new InMemoryTransaction(cluster, Long.MAX_VALUE, false, AccessControl.ROOT);
  }

  @Override
  public TransactionId id() {
    TransactionId known = id;
    if (known == null) {
      // Shaped like a YTsaurus GUID; 0x10002 is the object type of a tablet transaction.
      known =
          new TransactionId(
              Long.toHexString(sequence)
                  + "-"
                  + Long.toHexString(startTimestamp >>> 32)
                  + "-"
                  + Integer.toHexString(0x10002)
                  + "-"
                  + Long.toHexString(startTimestamp & 0xffffffffL));
      id = known;
    }
    return known;
  }

  long startTimestamp() {
    return startTimestamp;
  }

  @Override
  public void insertRows(YPath table, List<Row> rows) {
    synchronized (cluster) {
      cluster
          .faults()
          .run(ClusterOperation.INSERT, () -> use("modify rows", () -> bufferInserts(table, rows)));
    }
  }

  @Override
  public void deleteRows(YPath table, List<Row> keys) {
    synchronized (cluster) {
      cluster
          .faults()
          .run(ClusterOperation.DELETE, () -> use("delete rows", () -> bufferDeletes(table, keys)));
    }
  }

  @Override
  public StreamOffsets readConsumer(ConsumerId consumer, QueueId queue) {
    synchronized (cluster) {
      return cluster
          .faults()
          .call(
              ClusterOperation.READ_CONSUMER,
              () -> {
                checkUsable("read");
                cluster.checkLocal(consumer);
                StreamOffsets offsets =
                    ConsumerTableFormat.read(
                        cluster.consumerTable(consumer.path()), queue, startTimestamp);
                touch();
                return offsets;
              });
    }
  }

  @Override
  public void advanceConsumer(
      ConsumerId consumer, PartitionId partition, OptionalLong oldOffset, long newOffset) {
    synchronized (cluster) {
      cluster
          .faults()
          .run(
              ClusterOperation.TX_ADVANCE,
              () ->
                  use(
                      "advance consumer",
                      () -> bufferAdvance(user, consumer, partition, oldOffset, newOffset)));
    }
  }

  /** A client-side advance in this transaction (see {@link #bufferAdvance}). */
  void advanceConsumerClientSide(
      ConsumerId consumer, PartitionId partition, OptionalLong oldOffset, long newOffset) {
    synchronized (cluster) {
      use(
          "advance consumer",
          () -> bufferAdvance(user, consumer, partition, oldOffset, newOffset, false));
    }
  }

  @Override
  public void ping() {
    synchronized (cluster) {
      cluster.faults().run(ClusterOperation.PING, () -> use("ping", () -> {}));
    }
  }

  @Override
  public void commit() {
    synchronized (cluster) {
      cluster
          .faults()
          .call(
              ClusterOperation.COMMIT,
              () -> {
                commitNow();
                return null;
              },
              this::dropWithoutApplying);
    }
  }

  @Override
  public void abort() {
    synchronized (cluster) {
      cluster
          .faults()
          .run(
              ClusterOperation.ABORT,
              () -> {
                if (state == TransactionState.ABORTED) {
                  return;
                }
                checkUsable("abort");
                finish(TransactionState.ABORTED);
              });
    }
  }

  // ---- called under the cluster lock by this class and by the single-call ports ----

  void bufferInserts(YPath path, List<Row> rows) {
    TableNode table = cluster.table(path);
    List<BufferedWrite> validated = new ArrayList<>(rows.size());
    for (Row row : rows) {
      if (table instanceof OrderedTable ordered) {
        OptionalInt tablet = tabletIndexOf(path, ordered, row);
        Row data = ordered.schema().normalize(path, row, true);
        validated.add(new BufferedWrite.OrderedAppend(path, tablet, data));
      } else {
        Row data = table.schema().normalize(path, row);
        validated.add(
            new BufferedWrite.SortedWrite(path, table.schema().keyOf(data), Optional.of(data)));
      }
    }
    writes.addAll(validated);
  }

  /** Appends to one tablet of an ordered table; the rows do not name it ({@code $tablet_index}). */
  void bufferInsertsToTablet(YPath path, int tablet, List<Row> rows) {
    OrderedTable ordered = cluster.orderedTable(path);
    if (tablet < 0 || tablet >= ordered.tabletCount()) {
      throw ClusterErrors.generic(
          "Invalid $tablet_index "
              + tablet
              + " for table "
              + path.value()
              + ": expected an int64 in [0, "
              + ordered.tabletCount()
              + ")");
    }
    OptionalInt target = OptionalInt.of(tablet);
    List<BufferedWrite> validated = new ArrayList<>(rows.size());
    for (Row row : rows) {
      validated.add(
          new BufferedWrite.OrderedAppend(path, target, ordered.schema().normalize(path, row)));
    }
    writes.addAll(validated);
  }

  void bufferDeletes(YPath path, List<Row> keys) {
    SortedTable table = cluster.sortedTable(path);
    List<BufferedWrite> validated = new ArrayList<>(keys.size());
    for (Row key : keys) {
      validated.add(
          new BufferedWrite.SortedWrite(
              path, table.schema().keyFromKeyRow(path, key), Optional.empty()));
    }
    writes.addAll(validated);
  }

  /**
   * Checks {@code oldOffset} against the consumer row at this transaction's start snapshot (missing
   * = 0), then buffers the new row. No monotonicity check: YTsaurus allows moving back.
   */
  /**
   * Buffers a consumer's advance as {@code caller}: {@code read} on the consumer is checked, then
   * the consumer's registration for the queue (901 either way), before the offset is compared, as
   * the server's {@code advance_queue_consumer} does.
   */
  void bufferAdvance(
      String caller,
      ConsumerId consumer,
      PartitionId partition,
      OptionalLong oldOffset,
      long newOffset) {
    bufferAdvance(caller, consumer, partition, oldOffset, newOffset, true);
  }

  /**
   * As above; with {@code serverSide} false, a client-side advance: the consumer row is written as
   * any row of the consumer table, with neither the read check nor the registration check ({@code
   * yt/yt/client/api/queue_transaction_mixin.cpp}, {@code AdvanceConsumer}).
   */
  void bufferAdvance(
      String caller,
      ConsumerId consumer,
      PartitionId partition,
      OptionalLong oldOffset,
      long newOffset,
      boolean serverSide) {
    if (newOffset < 0) {
      throw new IllegalArgumentException(
          "Queue consumer offset " + newOffset + " cannot be negative");
    }
    cluster.checkLocal(consumer);
    SortedTable table = cluster.consumerTable(consumer.path());
    if (serverSide) {
      cluster
          .accessControl()
          .check(cluster.tree(), caller, consumer.path(), "read", Optional.empty());
      if (!cluster.registrations().isRegistered(partition.queue().path(), consumer.path())) {
        throw ClusterErrors.notRegistered(consumer.toString(), partition.queue().key());
      }
    }
    RowKey key = ConsumerTableFormat.key(partition);
    if (oldOffset.isPresent()) {
      long current = ConsumerTableFormat.offsetOf(table.readAt(key, startTimestamp));
      if (current != oldOffset.getAsLong()) {
        throw ClusterErrors.offsetConflict(
            partition.index(), consumer.path(), oldOffset.getAsLong(), current);
      }
    }
    Row row =
        table.schema().normalize(consumer.path(), ConsumerTableFormat.row(partition, newOffset));
    writes.add(new BufferedWrite.SortedWrite(consumer.path(), key, Optional.of(row)));
  }

  OptionalLong producerSequenceNumber(io.ytstream.ports.ProducerSessionId session) {
    Long number = producerNumbers.get(session);
    return number == null ? OptionalLong.empty() : OptionalLong.of(number);
  }

  void rememberProducerSequenceNumber(io.ytstream.ports.ProducerSessionId session, long number) {
    producerNumbers.put(session, number);
  }

  /** Runs {@code check} when this transaction commits; if it throws, the commit fails whole. */
  void checkAtCommit(Runnable check) {
    commitChecks.add(check);
  }

  void commitNow() {
    checkUsable("commit");
    leavePool();
    try {
      for (Runnable check : commitChecks) {
        check.run();
      }
      TransactionCommit.apply(cluster, this, writes);
      finish(TransactionState.COMMITTED);
    } catch (RuntimeException e) {
      // A failed commit applies nothing and ends the transaction, as in YTsaurus.
      finish(TransactionState.ABORTED);
      throw e;
    }
  }

  /** Fails with 11000 after expiry and 11003 after commit or abort. */
  void checkUsable(String action) {
    expireIfLeaseLapsed();
    switch (state) {
      case ACTIVE:
        return;
      case EXPIRED:
        throw ClusterErrors.noSuchTransaction(id());
      case COMMITTED:
      case ABORTED:
        throw ClusterErrors.invalidState(action, id(), state);
    }
  }

  /** Expiry is noticed lazily, on use or on a sweep; the clock alone changes nothing. */
  void expireIfLeaseLapsed() {
    if (state == TransactionState.ACTIVE && cluster.nowMillis() - lastUsedMillis >= timeoutMillis) {
      expire();
    }
  }

  void expire() {
    if (state == TransactionState.ACTIVE) {
      finish(TransactionState.EXPIRED);
    }
  }

  void touch() {
    lastUsedMillis = Math.max(lastUsedMillis, cluster.nowMillis());
  }

  private void use(String action, Runnable body) {
    checkUsable(action);
    body.run();
    touch();
  }

  private void dropWithoutApplying() {
    if (state == TransactionState.ACTIVE) {
      finish(TransactionState.ABORTED);
    }
  }

  private void finish(TransactionState finalState) {
    state = finalState;
    writes.clear();
    commitChecks.clear();
    leavePool();
  }

  private void leavePool() {
    if (pooled) {
      cluster.transactions().remove(id());
    }
  }

  private static OptionalInt tabletIndexOf(YPath path, OrderedTable table, Row row) {
    if (!row.has(StoredSchema.TABLET_INDEX)) {
      return OptionalInt.empty();
    }
    Object value = row.get(StoredSchema.TABLET_INDEX);
    if (!(value instanceof Long || value instanceof Integer)
        || ((Number) value).longValue() < 0
        || ((Number) value).longValue() >= table.tabletCount()) {
      throw ClusterErrors.generic(
          "Invalid $tablet_index "
              + value
              + " for table "
              + path.value()
              + ": expected an int64 in [0, "
              + table.tabletCount()
              + ")");
    }
    return OptionalInt.of(((Number) value).intValue());
  }
}
