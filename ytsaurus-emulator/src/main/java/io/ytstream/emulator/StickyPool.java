package io.ytstream.emulator;

import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.TimeSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sticky transaction pools of all emulated proxies, as {@code
 * yt/yt/client/api/sticky_transaction_pool.cpp} keeps one per proxy process: each tablet
 * transaction is registered with the proxy that started it, with a lease of its timeout that every
 * use renews. Commit and abort unregister it (the pool subscribes to both; a failed commit aborts
 * the transaction), and so does an expired lease (which aborts it). Any use of an id the proxy does
 * not hold, whether foreign, unknown or finished, answers 11000 with the server's message ({@code
 * GetTransactionAndRenewLeaseOrThrow}): never 11003.
 */
final class StickyPool {

  private static final class Entry {
    final int proxyIndex;
    final TabletTransaction transaction;
    final long timeoutMillis;
    long leaseStartMillis;

    Entry(int proxyIndex, TabletTransaction transaction, long timeoutMillis, long now) {
      this.proxyIndex = proxyIndex;
      this.transaction = transaction;
      this.timeoutMillis = timeoutMillis;
      this.leaseStartMillis = now;
    }
  }

  private final Map<String, Entry> entries = new ConcurrentHashMap<>();
  private final TimeSource clock;

  StickyPool(TimeSource clock) {
    this.clock = clock;
  }

  void add(int proxyIndex, TabletTransaction transaction, long timeoutMillis) {
    entries.put(
        transaction.id().value(),
        new Entry(proxyIndex, transaction, timeoutMillis, clock.nowMillis()));
  }

  /** The transaction, its lease renewed; 11000 when this proxy does not hold it. */
  TabletTransaction get(String transactionId, int proxyIndex) {
    Entry entry = entries.get(transactionId);
    if (entry == null || entry.proxyIndex != proxyIndex) {
      throw notFound(transactionId);
    }
    synchronized (entry) {
      long now = clock.nowMillis();
      if (now - entry.leaseStartMillis >= entry.timeoutMillis) {
        entries.remove(transactionId, entry);
        try {
          entry.transaction.abort();
        } catch (RuntimeException e) {
          // Already over on the cluster side; the pool forgets it either way.
        }
        throw notFound(transactionId);
      }
      entry.leaseStartMillis = now;
    }
    return entry.transaction;
  }

  /** Unregisters a committed or aborted transaction. */
  void finished(String transactionId) {
    entries.remove(transactionId);
  }

  private static CommandError notFound(String transactionId) {
    return CommandError.of(
        11000,
        "Sticky transaction "
            + transactionId
            + " is not found, this usually means that you use tablet transactions within HTTP"
            + " API; consider using RPC API instead");
  }

  int size() {
    return entries.size();
  }
}
