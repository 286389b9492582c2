package io.ytstream.inmemory;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import io.ytstream.ports.TimeSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Master (Cypress) transactions ({@code yt/yt/client/driver/transaction_commands.cpp}: {@code
 * start_transaction} without {@code type} or with {@code type=master}, nested under {@code
 * transaction_id}; {@code ping_transaction}, {@code commit_transaction}, {@code
 * abort_transaction}). A Cypress change made under one is staged in it: the transaction and its
 * descendants see it, nobody else does, until the outermost transaction commits, when its changes
 * are applied in the order they were made. A nested commit hands its changes to its parent; an
 * abort drops them with those of every descendant. A transaction whose lease (its {@code timeout},
 * renewed by pings and by use) ran out is aborted. Any use of an unknown or finished id answers
 * 11000, NoSuchTransaction ({@code yt/yt/client/transaction_client/public.h}).
 *
 * <p>What is staged: nodes (map nodes and files, with a file's content), attributes set with {@code
 * set}, and rows written to static tables ({@code write_table}, {@code
 * yt/yt/client/driver/table_commands.cpp}: the table's chunks are attached in the transaction and
 * reach the table at the outermost commit). The emulator's Cypress commands and the in-memory
 * {@code StaticTableAppends} share these transactions, so a transaction started over HTTP is the
 * one a port call names.
 *
 * <p>What is not modelled: locks (a {@code lock} is granted, never contended), and conflicts
 * between transactions: the last commit wins.
 *
 * <p>Calls hold the cluster's lock, so that a commit applies its changes to the cluster as one
 * step.
 */
public final class MasterTransactions {

  /** A staged node: its type, or null when the transaction removed it; a file's content. */
  public record StagedNode(String type, byte[] content) {
    public boolean removed() {
      return type == null;
    }
  }

  /**
   * What a transaction wrote to one static table: whether it began by replacing the content (a
   * {@code write_table} without {@code append}), and the rows after that, in order.
   */
  static final class StagedRows {
    boolean overwritten;
    final List<Row> rows = new ArrayList<>();
  }

  /** One master transaction: its staged nodes, attributes, rows and the changes to apply. */
  public static final class Transaction {
    private final String id;
    private final Transaction parent;
    private final long timeoutMillis;
    private long leaseStartMillis;
    private final Map<YPath, StagedNode> nodes = new TreeMap<>(Comparator.comparing(YPath::value));
    private final Map<YPath, Map<String, Object>> attributes =
        new TreeMap<>(Comparator.comparing(YPath::value));
    final Map<YPath, StagedRows> tableRows = new TreeMap<>(Comparator.comparing(YPath::value));
    private final List<Runnable> changes = new ArrayList<>();

    Transaction(String id, Transaction parent, long timeoutMillis, long now) {
      this.id = id;
      this.parent = parent;
      this.timeoutMillis = timeoutMillis;
      this.leaseStartMillis = now;
    }

    public String id() {
      return id;
    }

    /** Nodes created, replaced or removed in this transaction, by path. */
    public Map<YPath, StagedNode> nodes() {
      return nodes;
    }

    /** Attributes set in this transaction, by node; values as JSON has them. */
    public Map<YPath, Map<String, Object>> attributes() {
      return attributes;
    }

    /** What the outermost commit applies, in order. */
    public List<Runnable> changes() {
      return changes;
    }

    /** This transaction, then its ancestors: the order in which staged state is looked up. */
    public List<Transaction> chain() {
      List<Transaction> chain = new ArrayList<>();
      for (Transaction t = this; t != null; t = t.parent) {
        chain.add(t);
      }
      return chain;
    }
  }

  private final Map<String, Transaction> active = new TreeMap<>();
  private final AtomicLong counter = new AtomicLong();
  private final TimeSource clock;
  private final Object lock;

  MasterTransactions(Object lock, TimeSource clock) {
    this.lock = lock;
    this.clock = clock;
  }

  /**
   * Starts a transaction, nested in {@code parentId} when given (the client sends the null id
   * {@code 0-0-0-0} for none). Its id has object type 1 (Transaction) or 4 (NestedTransaction) in
   * the third part, as the server's ids do ({@code yt/yt/client/object_client/public.h}).
   */
  public Transaction start(Optional<String> parentId, long timeoutMillis) {
    synchronized (lock) {
      Transaction parent = parentId.filter(id -> !isNull(id)).map(this::get).orElse(null);
      long n = counter.incrementAndGet();
      int type = parent == null ? 1 : 4;
      String id =
          String.format(
              "%x-%x-%x-%x",
              n,
              clock.nowMillis() & 0xffffffffL,
              (1 << 16) | type,
              (n * 0x9e3779b1L) & 0xffffffffL);
      Transaction transaction = new Transaction(id, parent, timeoutMillis, clock.nowMillis());
      active.put(id, transaction);
      return transaction;
    }
  }

  /** Whether {@code id} names a master transaction this cluster started and still holds. */
  public boolean holds(String id) {
    synchronized (lock) {
      return active.containsKey(id);
    }
  }

  /**
   * Whether {@code id} is held and its lease has not run out, without renewing it (a look from
   * outside, as a test's; any use renews).
   */
  public boolean live(String id) {
    synchronized (lock) {
      Transaction transaction = active.get(id);
      return transaction != null
          && clock.nowMillis() - transaction.leaseStartMillis < transaction.timeoutMillis;
    }
  }

  /** The transaction, its lease renewed; 11000 when it is unknown, finished or expired. */
  public Transaction get(String id) {
    synchronized (lock) {
      Transaction transaction = active.get(id);
      if (transaction == null) {
        throw noSuchTransaction(id);
      }
      long now = clock.nowMillis();
      if (now - transaction.leaseStartMillis >= transaction.timeoutMillis) {
        abort(id);
        throw noSuchTransaction(id);
      }
      for (Transaction t : transaction.chain()) {
        t.leaseStartMillis = now;
      }
      return transaction;
    }
  }

  /**
   * Commits: a nested transaction's changes go to its parent; the outermost one's are applied by
   * {@code apply}, then in order. Descendants still running are aborted first, as the server does.
   */
  public void commit(String id, Runnable apply) {
    synchronized (lock) {
      Transaction transaction = get(id);
      abortDescendants(transaction);
      active.remove(id);
      if (transaction.parent != null) {
        Transaction parent = transaction.parent;
        transaction.nodes.forEach(
            (path, node) -> {
              if (node.removed()) {
                parent.nodes.keySet().removeIf(p -> isAtOrUnder(p, path));
                parent.attributes.keySet().removeIf(p -> isAtOrUnder(p, path));
                parent.tableRows.keySet().removeIf(p -> isAtOrUnder(p, path));
              }
              parent.nodes.put(path, node);
            });
        transaction.attributes.forEach(
            (path, values) ->
                parent.attributes.computeIfAbsent(path, p -> new TreeMap<>()).putAll(values));
        transaction.tableRows.forEach(
            (path, staged) -> {
              StagedRows into = parent.tableRows.computeIfAbsent(path, p -> new StagedRows());
              if (staged.overwritten) {
                into.overwritten = true;
                into.rows.clear();
              }
              into.rows.addAll(staged.rows);
            });
        parent.changes.addAll(transaction.changes);
        return;
      }
      apply.run();
      transaction.changes.forEach(Runnable::run);
    }
  }

  /** Commits with nothing to apply first. */
  public void commit(String id) {
    commit(id, () -> {});
  }

  /** Aborts with every descendant; an unknown id is a no-op. */
  public void abort(String id) {
    synchronized (lock) {
      Transaction transaction = active.remove(id);
      if (transaction != null) {
        abortDescendants(transaction);
      }
    }
  }

  /** The ids of the running transactions, in the order they started. */
  public List<String> ids() {
    synchronized (lock) {
      List<Transaction> all = new ArrayList<>(active.values());
      all.sort(Comparator.comparing(t -> Long.parseLong(t.id.substring(0, t.id.indexOf('-')), 16)));
      List<String> ids = new ArrayList<>();
      all.forEach(t -> ids.add(t.id));
      return ids;
    }
  }

  private void abortDescendants(Transaction ancestor) {
    List<String> descendants = new ArrayList<>();
    active.forEach(
        (id, t) -> {
          for (Transaction p = t.parent; p != null; p = p.parent) {
            if (p == ancestor) {
              descendants.add(id);
              break;
            }
          }
        });
    descendants.forEach(active::remove);
  }

  /** The null id {@code 0-0-0-0}, which the official client sends outside transactions. */
  public static boolean isNull(String id) {
    return id.equals("0-0-0-0");
  }

  public static boolean isAtOrUnder(YPath path, YPath ancestor) {
    return path.equals(ancestor) || path.value().startsWith(ancestor.value() + "/");
  }

  static YtException noSuchTransaction(String id) {
    return new YtException(YtErrorCode.NO_SUCH_TRANSACTION, "No such transaction " + id);
  }
}
