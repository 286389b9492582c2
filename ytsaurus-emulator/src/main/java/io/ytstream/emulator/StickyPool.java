package io.ytstream.emulator;

import io.ytstream.ports.TabletTransaction;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sticky transaction pools of all emulated proxies. Each tablet transaction belongs to the
 * proxy that started it; any other proxy answers 11000 with the message of reference 3.6, exactly
 * as a separate proxy process without the transaction in memory would. Leases and final states are
 * the in-memory cluster's (a finished transaction stays here, so a second commit gives 11003).
 */
final class StickyPool {

  private record Entry(int proxyIndex, TabletTransaction transaction) {}

  private final Map<String, Entry> entries = new ConcurrentHashMap<>();

  void add(int proxyIndex, TabletTransaction transaction) {
    entries.put(transaction.id().value(), new Entry(proxyIndex, transaction));
  }

  TabletTransaction get(String transactionId, int proxyIndex) {
    Entry entry = entries.get(transactionId);
    if (entry == null || entry.proxyIndex() != proxyIndex) {
      throw CommandError.of(
          11000,
          "Sticky transaction "
              + transactionId
              + " is not found, this usually means that you use tablet transactions within HTTP"
              + " API; consider using RPC API instead");
    }
    return entry.transaction();
  }

  int size() {
    return entries.size();
  }
}
