package io.ytstream.inmemory;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.MasterTransaction;
import io.ytstream.ports.Row;
import io.ytstream.ports.StaticTableAppends;
import io.ytstream.ports.TableNodeSchema;
import io.ytstream.ports.TransactionId;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Static table appends in the cluster's master transactions, the same ones the emulator serves over
 * HTTP ({@link MasterTransactions}): a transaction started here can be named by a request.
 */
final class InMemoryStaticTableAppends implements StaticTableAppends {

  private final ClusterState state;
  private final StaticTableWrites writes;

  InMemoryStaticTableAppends(ClusterState state) {
    this.state = state;
    this.writes = new StaticTableWrites(state);
  }

  /** Runs a port call through the faults scheduled for its operation, under the cluster lock. */
  private <T> T faulty(ClusterOperation operation, Supplier<T> call) {
    synchronized (state) {
      return state.faults().call(operation, call);
    }
  }

  private void faulty(ClusterOperation operation, Runnable call) {
    synchronized (state) {
      state.faults().run(operation, call);
    }
  }

  @Override
  public MasterTransaction start(Duration timeout) {
    if (timeout.isZero() || timeout.isNegative()) {
      throw new IllegalArgumentException("transaction timeout must be positive, got " + timeout);
    }
    return faulty(
        ClusterOperation.MASTER_START,
        () ->
            new Handle(
                new TransactionId(
                    state.masterTransactions().start(Optional.empty(), timeout.toMillis()).id())));
  }

  @Override
  public MasterTransaction attach(TransactionId id) {
    return faulty(
        ClusterOperation.MASTER_ATTACH,
        () -> {
          state.masterTransactions().get(id.value());
          return new Handle(id);
        });
  }

  @Override
  public Optional<Object> attribute(YPath table, String name) {
    return faulty(
        ClusterOperation.ATTRIBUTE_READ, () -> attributeOf(table, name, Optional.empty()));
  }

  /** An attribute of an existing node (500 for a missing one, as {@code get} answers). */
  private Optional<Object> attributeOf(YPath table, String name, Optional<String> transaction) {
    state.tree().resolve(table);
    return Optional.ofNullable(writes.attributes(table, transaction).get(name));
  }

  @Override
  public List<Row> readAll(YPath table) {
    return faulty(ClusterOperation.STATIC_READ, () -> writes.read(table, Optional.empty()));
  }

  @Override
  public TableNodeSchema describe(YPath table) {
    return faulty(ClusterOperation.TABLE_NODE_DESCRIBE, () -> writes.describe(table));
  }

  /** A handle on one master transaction: every call names it by id, so handles share it. */
  private final class Handle implements MasterTransaction {
    private final TransactionId id;

    Handle(TransactionId id) {
      this.id = id;
    }

    @Override
    public TransactionId id() {
      return id;
    }

    @Override
    public MasterTransaction startNested(Duration timeout) {
      if (timeout.isZero() || timeout.isNegative()) {
        throw new IllegalArgumentException("transaction timeout must be positive, got " + timeout);
      }
      return faulty(
          ClusterOperation.MASTER_START,
          () ->
              new Handle(
                  new TransactionId(
                      state.masterTransactions().start(in(), timeout.toMillis()).id())));
    }

    private Optional<String> in() {
      return Optional.of(id.value());
    }

    /**
     * The rows are drained under the cluster's lock, so that a fault scheduled on {@link
     * ClusterOperation#STATIC_APPEND} and the append are one step; the cluster holds them all, as a
     * server would hold them in its chunks.
     */
    @Override
    public void append(YPath table, Iterator<Row> rows) {
      faulty(ClusterOperation.STATIC_APPEND, () -> writes.write(table, in(), rows, true));
    }

    @Override
    public List<Row> readAll(YPath table) {
      return faulty(ClusterOperation.STATIC_READ, () -> writes.read(table, in()));
    }

    @Override
    public Optional<Object> attribute(YPath table, String name) {
      return faulty(ClusterOperation.ATTRIBUTE_READ, () -> attributeOf(table, name, in()));
    }

    @Override
    public void setAttribute(YPath table, String name, Object value) {
      faulty(
          ClusterOperation.ATTRIBUTE_SET,
          () -> {
            // The port creates no nodes, so the node is a committed one (500 when missing).
            state.tree().resolve(table);
            writes.setAttribute(table, name, value, in());
          });
    }

    @Override
    public void ping() {
      faulty(ClusterOperation.MASTER_PING, () -> state.masterTransactions().get(id.value()));
    }

    /**
     * Commits; a fault of kind unknown-outcome-without-applying aborts the transaction, so what it
     * staged is lost as a commit whose request never arrived would lose it.
     */
    @Override
    public void commit() {
      synchronized (state) {
        state
            .faults()
            .call(
                ClusterOperation.MASTER_COMMIT,
                () -> {
                  state.masterTransactions().commit(id.value());
                  return null;
                },
                () -> state.masterTransactions().abort(id.value()));
      }
    }

    @Override
    public void abort() {
      faulty(ClusterOperation.MASTER_ABORT, () -> state.masterTransactions().abort(id.value()));
    }

    @Override
    public String toString() {
      return "master transaction " + id;
    }
  }
}
