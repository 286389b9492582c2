package io.ytstream.inmemory;

import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.TabletTransactions;
import io.ytstream.ports.TransactionId;
import java.time.Duration;

/** Starts tablet transactions and attaches to live ones (the emulated sticky pool). */
final class InMemoryTabletTransactions implements TabletTransactions {

  private final ClusterState cluster;
  private final String user;

  InMemoryTabletTransactions(ClusterState cluster, String user) {
    this.cluster = cluster;
    this.user = user;
  }

  @Override
  public TabletTransaction start(Duration timeout) {
    synchronized (cluster) {
      return cluster
          .faults()
          .call(ClusterOperation.START_TX, () -> InMemoryTransaction.start(cluster, timeout, user));
    }
  }

  /** Returns the same object the starter holds; attaching renews the lease. */
  @Override
  public TabletTransaction attach(TransactionId id) {
    synchronized (cluster) {
      return cluster
          .faults()
          .call(
              ClusterOperation.ATTACH_TX,
              () -> {
                InMemoryTransaction transaction = cluster.transactions().attach(id);
                transaction.touch();
                return transaction;
              });
    }
  }
}
