package io.ytstream.inmemory;

import io.ytstream.ports.TransactionId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Live tablet transactions by id: the emulated sticky transaction pool. Finished and expired
 * transactions leave it, so attaching to them fails with 11000. Not thread-safe on its own; the
 * cluster calls it under its lock.
 */
final class TransactionRegistry {

  /** Insertion-ordered, so anything iterating it is deterministic. */
  private final Map<TransactionId, InMemoryTransaction> live = new LinkedHashMap<>();

  private long sequence;

  long nextSequence() {
    return ++sequence;
  }

  void add(InMemoryTransaction transaction) {
    live.put(transaction.id(), transaction);
  }

  void remove(TransactionId id) {
    live.remove(id);
  }

  /** The live transaction, expiring it first if its lease lapsed; 11000 when there is none. */
  InMemoryTransaction attach(TransactionId id) {
    InMemoryTransaction transaction = live.get(id);
    if (transaction == null) {
      throw ClusterErrors.noSuchTransaction(id);
    }
    transaction.checkUsable("attach");
    return transaction;
  }

  void expireNow(TransactionId id) {
    InMemoryTransaction transaction = live.get(id);
    if (transaction == null) {
      throw ClusterErrors.noSuchTransaction(id);
    }
    transaction.expire();
  }

  /** Expires every transaction whose lease has lapsed, in start order. */
  void expireLapsed() {
    List.copyOf(live.values()).forEach(InMemoryTransaction::expireIfLeaseLapsed);
  }

  List<TransactionId> liveIds() {
    return List.copyOf(live.keySet());
  }

  /** The oldest snapshot a live transaction may still read; older versions can be dropped. */
  OptionalLong oldestStartTimestamp() {
    // A loop, not a stream: this runs on every commit.
    if (live.isEmpty()) {
      return OptionalLong.empty();
    }
    long oldest = Long.MAX_VALUE;
    for (InMemoryTransaction transaction : live.values()) {
      oldest = Math.min(oldest, transaction.startTimestamp());
    }
    return OptionalLong.of(oldest);
  }
}
