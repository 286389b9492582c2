package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.TabletTransactions;
import io.ytstream.ports.TransactionId;
import java.time.Duration;

/**
 * {@code start_transaction type=tablet} on a heavy proxy picked from {@code /hosts}; every later
 * request of the transaction goes to that proxy ({@code
 * yt/yt/client/api/sticky_transaction_pool.cpp}: the sticky pool is per proxy process). The caller
 * that starts a transaction renews its lease ({@link TabletTransactions}).
 */
final class HttpTabletTransactions implements TabletTransactions {

  private final YtsaurusCluster cluster;

  HttpTabletTransactions(YtsaurusCluster cluster) {
    this.cluster = cluster;
  }

  @Override
  public TabletTransaction start(Duration timeout) {
    if (timeout.isZero() || timeout.isNegative()) {
      throw new IllegalArgumentException("transaction timeout must be positive, got " + timeout);
    }
    ProxyTarget target = cluster.heavyProxies().forNewTransaction();
    YtHttpClient client = cluster.client();
    ObjectNode params = client.params();
    params.put("type", "tablet");
    params.put("timeout", timeout.toMillis());
    // An orphan from a lost response expires by itself, so a repeat is harmless.
    String id =
        client
            .structured(target, Command.START_TRANSACTION, params, Repeat.IDEMPOTENT)
            .path("transaction_id")
            .asText("");
    if (id.isEmpty()) {
      throw new YtTransportException("start_transaction returned no transaction_id", null);
    }
    // The caller owns the lease (TabletTransactions): nothing here pings it.
    // The proxy that answered holds it: a banned or overloaded one was left for another.
    return new HttpTabletTransaction(cluster, new StickyTransactionId(id, target.current()));
  }

  @Override
  public TabletTransaction attach(TransactionId id) {
    StickyTransactionId sticky = StickyTransactionId.parse(id, cluster.client().primaryProxy());
    HttpTabletTransaction transaction = new HttpTabletTransaction(cluster, sticky);
    // A ping both checks that the proxy still holds the transaction (11000 otherwise) and renews
    // it.
    transaction.ping();
    return transaction;
  }
}
