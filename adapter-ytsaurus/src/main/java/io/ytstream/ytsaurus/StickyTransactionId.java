package io.ytstream.ytsaurus;

import io.ytstream.ports.TransactionId;
import java.net.URI;

/**
 * A tablet transaction lives in the memory of the one HTTP proxy that started it ({@code
 * yt/yt/client/api/sticky_transaction_pool.cpp}), so the id an executor receives must name that
 * proxy too: {@code <yt-transaction-id>@<proxy>}. SPYT passes the same pair as {@code
 * StreamingTxContext(txId, stickyProxyAddress)}.
 */
record StickyTransactionId(String transactionId, URI proxy) {

  TransactionId toPortId() {
    return new TransactionId(transactionId + "@" + proxy);
  }

  /** Parses a port id; an id without {@code @proxy} is taken to live on {@code fallback}. */
  static StickyTransactionId parse(TransactionId id, URI fallback) {
    String value = id.value();
    int at = value.indexOf('@');
    if (at < 0) {
      return new StickyTransactionId(value, fallback);
    }
    return new StickyTransactionId(
        value.substring(0, at), ProxyAddress.normalize(value.substring(at + 1)));
  }
}
