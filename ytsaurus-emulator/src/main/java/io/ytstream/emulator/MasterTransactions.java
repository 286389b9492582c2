package io.ytstream.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.TimeSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
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
 * <p>What the emulator does not model: locks (a {@code lock} is granted, never contended), and
 * conflicts between transactions: the last commit wins.
 */
final class MasterTransactions {

  /** A staged node: its type, or null when the transaction removed it; a file's content. */
  record StagedNode(String type, byte[] content) {
    boolean removed() {
      return type == null;
    }
  }

  /** One master transaction: its staged nodes, attributes and the changes to apply at commit. */
  static final class Transaction {
    final String id;
    final Transaction parent;
    final long timeoutMillis;
    long leaseStartMillis;
    final Map<YPath, StagedNode> nodes = new TreeMap<>(Comparator.comparing(YPath::value));
    final Map<YPath, Map<String, JsonNode>> attributes =
        new TreeMap<>(Comparator.comparing(YPath::value));
    final List<Runnable> changes = new ArrayList<>();

    Transaction(String id, Transaction parent, long timeoutMillis, long now) {
      this.id = id;
      this.parent = parent;
      this.timeoutMillis = timeoutMillis;
      this.leaseStartMillis = now;
    }

    /** This transaction, then its ancestors: the order in which staged state is looked up. */
    List<Transaction> chain() {
      List<Transaction> chain = new ArrayList<>();
      for (Transaction t = this; t != null; t = t.parent) {
        chain.add(t);
      }
      return chain;
    }
  }

  private final Map<String, Transaction> active = new ConcurrentHashMap<>();
  private final AtomicLong counter = new AtomicLong();
  private final TimeSource clock;

  MasterTransactions(TimeSource clock) {
    this.clock = clock;
  }

  /**
   * Starts a transaction, nested in {@code parentId} when given (the client sends the null id
   * {@code 0-0-0-0} for none). Its id has object type 1 (Transaction) or 4 (NestedTransaction) in
   * the third part, as the server's ids do ({@code yt/yt/client/object_client/public.h}).
   */
  synchronized Transaction start(Optional<String> parentId, long timeoutMillis) {
    Transaction parent = parentId.filter(id -> !isNull(id)).map(this::get).orElse(null);
    long n = counter.incrementAndGet();
    int type = parent == null ? 1 : 4;
    String id =
        String.format(
            "%x-%x-%x-%x",
            n, clock.nowMillis() & 0xffffffffL, (1 << 16) | type, (n * 0x9e3779b1L) & 0xffffffffL);
    Transaction transaction = new Transaction(id, parent, timeoutMillis, clock.nowMillis());
    active.put(id, transaction);
    return transaction;
  }

  /** Whether {@code id} names a master transaction this emulator started and still holds. */
  boolean holds(String id) {
    return active.containsKey(id);
  }

  /** The transaction, its lease renewed; 11000 when it is unknown, finished or expired. */
  synchronized Transaction get(String id) {
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

  /**
   * Commits: a nested transaction's changes go to its parent; the outermost one's are applied by
   * {@code apply}, in order. Descendants still running are aborted first, as the server does.
   */
  synchronized void commit(String id, Runnable apply) {
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
            }
            parent.nodes.put(path, node);
          });
      transaction.attributes.forEach(
          (path, values) ->
              parent.attributes.computeIfAbsent(path, p -> new TreeMap<>()).putAll(values));
      parent.changes.addAll(transaction.changes);
      return;
    }
    apply.run();
    transaction.changes.forEach(Runnable::run);
  }

  synchronized void abort(String id) {
    Transaction transaction = active.remove(id);
    if (transaction != null) {
      abortDescendants(transaction);
    }
  }

  /** The ids of the running transactions, in the order they started. */
  synchronized List<String> ids() {
    List<Transaction> all = new ArrayList<>(active.values());
    all.sort(Comparator.comparing(t -> Long.parseLong(t.id.substring(0, t.id.indexOf('-')), 16)));
    List<String> ids = new ArrayList<>();
    all.forEach(t -> ids.add(t.id));
    return ids;
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

  static boolean isNull(String id) {
    return id.equals("0-0-0-0");
  }

  static boolean isAtOrUnder(YPath path, YPath ancestor) {
    return path.equals(ancestor) || path.value().startsWith(ancestor.value() + "/");
  }

  static CommandError noSuchTransaction(String id) {
    return CommandError.of(11000, "No such transaction " + id);
  }
}
