package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.TransactionId;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/** One tablet transaction, every request sent to the proxy it was started on. */
final class HttpTabletTransaction implements TabletTransaction {

  private final YtsaurusCluster cluster;
  private final StickyTransactionId id;
  // COMMIT_TRANSACTION or ABORT_TRANSACTION once this handle has finished the transaction.
  private volatile Command finished;

  HttpTabletTransaction(YtsaurusCluster cluster, StickyTransactionId id) {
    this.cluster = cluster;
    this.id = id;
  }

  @Override
  public TransactionId id() {
    return id.toPortId();
  }

  @Override
  public void insertRows(YPath table, List<Row> rows) {
    modify(Command.INSERT_ROWS, table, rows);
  }

  @Override
  public void deleteRows(YPath table, List<Row> keys) {
    modify(Command.DELETE_ROWS, table, keys);
  }

  private void modify(Command command, YPath table, List<Row> rows) {
    if (rows.isEmpty()) {
      return;
    }
    YtHttpClient client = cluster.client();
    ObjectNode params = client.params();
    params.put("path", table.value());
    params.put("transaction_id", id.transactionId());
    client.structured(
        pinned(),
        command,
        params,
        cluster.rows().encode(rows, cluster.columnTypes(table)),
        Repeat.ONCE);
  }

  @Override
  public StreamOffsets readConsumer(ConsumerId consumer, QueueId queue) {
    return cluster.consumerRows().read(consumer, queue, pinned(), id.transactionId());
  }

  @Override
  public void advanceConsumer(
      ConsumerId consumer, PartitionId partition, OptionalLong oldOffset, long newOffset) {
    cluster
        .consumerRows()
        .advance(consumer, partition, oldOffset, newOffset, pinned(), id.transactionId());
  }

  @Override
  public void ping() {
    finish(Command.PING_TRANSACTION, Repeat.IDEMPOTENT);
  }

  /**
   * Commits. An answer of 11000 does not say the transaction did not commit: the proxy drops a
   * tablet transaction from its sticky pool when it is committed or aborted, and answers 11000 for
   * any later use of the id ({@code yt/yt/client/api/sticky_transaction_pool.cpp}), so it is also
   * what a commit meets whose earlier answer was lost. Only the data can tell, so the error also
   * carries 11003, the ports' code for "already finished; the consumer rows tell whether it
   * committed", which the core's classifier reads as an unknown outcome.
   */
  @Override
  public void commit() {
    finishedHere("commit");
    try {
      finish(Command.COMMIT_TRANSACTION, Repeat.COMMIT);
    } catch (YtHttpException e) {
      if (e.hasCode(YtErrorCode.NO_SUCH_TRANSACTION)) {
        throw outcomeUnknown(e);
      }
      throw e;
    }
    finished = Command.COMMIT_TRANSACTION;
  }

  /** Aborts; a second abort through this handle changes nothing, as the ports define it. */
  @Override
  public void abort() {
    if (finished == Command.ABORT_TRANSACTION) {
      return;
    }
    finishedHere("abort");
    finish(Command.ABORT_TRANSACTION, Repeat.IDEMPOTENT);
    finished = Command.ABORT_TRANSACTION;
  }

  /**
   * A transaction this handle committed or aborted is finished: the ports answer 11003 without
   * asking the server, whose answer (11000 for every id it dropped) would not say which.
   */
  private synchronized void finishedHere(String what) {
    if (finished != null) {
      String how = finished == Command.COMMIT_TRANSACTION ? "committed" : "aborted";
      throw new YtHttpException(
          YtErrorCode.INVALID_TRANSACTION_STATE,
          "cannot "
              + what
              + " transaction "
              + id.toPortId()
              + ": it was already "
              + how
              + " through this handle",
          List.of(),
          0,
          what);
    }
  }

  private YtHttpException outcomeUnknown(YtHttpException e) {
    List<Integer> codes = new ArrayList<>(e.codes());
    codes.add(YtErrorCode.INVALID_TRANSACTION_STATE);
    return new YtHttpException(
        e.code(),
        e.getMessage()
            + "; the proxy answers so for a transaction that has already committed as well, so"
            + " whether this one did is known only from the consumer row",
        codes,
        e.httpStatus(),
        e.command());
  }

  private void finish(Command command, Repeat repeat) {
    YtHttpClient client = cluster.client();
    ObjectNode params = client.params();
    params.put("transaction_id", id.transactionId());
    client.structured(pinned(), command, params, repeat);
  }

  /**
   * Every request of the transaction goes to its proxy: no other holds it ({@code
   * yt/yt/client/api/sticky_transaction_pool.cpp}), so a banned or overloaded one fails it.
   */
  private ProxyTarget pinned() {
    return cluster.heavyProxies().transaction(id.proxy());
  }

  @Override
  public String toString() {
    return "HttpTabletTransaction{" + id.toPortId() + "}";
  }
}
