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

  @Override
  public MasterTransaction start(Duration timeout) {
    MasterTransactions.Transaction started =
        state.masterTransactions().start(Optional.empty(), timeout.toMillis());
    return new Handle(new TransactionId(started.id()));
  }

  @Override
  public MasterTransaction attach(TransactionId id) {
    state.masterTransactions().get(id.value());
    return new Handle(id);
  }

  @Override
  public Optional<Object> attribute(YPath table, String name) {
    return Optional.ofNullable(writes.attributes(table, Optional.empty()).get(name));
  }

  @Override
  public List<Row> readAll(YPath table) {
    return writes.read(table, Optional.empty());
  }

  @Override
  public TableNodeSchema describe(YPath table) {
    return writes.describe(table);
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

    private Optional<String> in() {
      return Optional.of(id.value());
    }

    @Override
    public void append(YPath table, Iterator<Row> rows) {
      writes.write(table, in(), rows, true);
    }

    @Override
    public List<Row> readAll(YPath table) {
      return writes.read(table, in());
    }

    @Override
    public Optional<Object> attribute(YPath table, String name) {
      return Optional.ofNullable(writes.attributes(table, in()).get(name));
    }

    @Override
    public void setAttribute(YPath table, String name, Object value) {
      writes.setAttribute(table, name, value, in());
    }

    @Override
    public void ping() {
      state.masterTransactions().get(id.value());
    }

    @Override
    public void commit() {
      state.masterTransactions().commit(id.value());
    }

    @Override
    public void abort() {
      state.masterTransactions().abort(id.value());
    }

    @Override
    public String toString() {
      return "master transaction " + id;
    }
  }
}
