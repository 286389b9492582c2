package io.ytstream.inmemory;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.TransactionId;

/**
 * The errors the in-memory cluster raises, with the codes and message shapes of a real cluster
 * (HTTP API reference, section 2.3), so that code tested here classifies real errors the same way.
 */
final class ClusterErrors {

  private ClusterErrors() {}

  static YtException resolveError(YPath path, String detail) {
    return new YtException(
        YtErrorCode.RESOLVE_ERROR, "Error resolving path " + path.value() + ": " + detail);
  }

  static YtException alreadyExists(YPath path) {
    return new YtException(YtErrorCode.ALREADY_EXISTS, "Node " + path.value() + " already exists");
  }

  static YtException generic(String message) {
    return new YtException(YtErrorCode.GENERIC, message);
  }

  static YtException notRegistered(String consumer, String queue) {
    return new YtException(
        YtErrorCode.AUTHORIZATION_ERROR,
        "Consumer " + consumer + " is not registered for queue " + queue);
  }

  static YtException offsetConflict(int partition, YPath consumer, long expected, long found) {
    return new YtException(
        YtErrorCode.CONSUMER_OFFSET_CONFLICT,
        "Offset conflict at partition "
            + partition
            + " of consumer "
            + consumer.value()
            + ": expected offset "
            + expected
            + ", found offset "
            + found);
  }

  static YtException lockConflict(TransactionId tx, YPath table, RowKey key) {
    return new YtException(
        YtErrorCode.TRANSACTION_LOCK_CONFLICT,
        "Row lock conflict due to concurrent write: transaction "
            + tx
            + " cannot commit key "
            + key
            + " of table "
            + table.value()
            + " because a transaction that overlapped it wrote that key and committed first");
  }

  static YtException tooManyRows(YPath table, int tablet, int rows, int limit) {
    return new YtException(
        YtErrorCode.TOO_MANY_ROWS_IN_TRANSACTION,
        "Transaction affects too many rows in tablet: tablet "
            + tablet
            + " of "
            + table.value()
            + " has "
            + rows
            + " rows, limit is "
            + limit);
  }

  static YtException noSuchTransaction(TransactionId tx) {
    return new YtException(
        YtErrorCode.NO_SUCH_TRANSACTION,
        "No such transaction " + tx + " (it is unknown, finished or expired)");
  }

  static YtException invalidState(String action, TransactionId tx, TransactionState state) {
    return new YtException(
        YtErrorCode.INVALID_TRANSACTION_STATE,
        "Cannot " + action + " since transaction " + tx + " is in " + state.wireName() + " state");
  }
}
