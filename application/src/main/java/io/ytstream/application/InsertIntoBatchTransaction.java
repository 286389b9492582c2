package io.ytstream.application;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.TabletTransactions;
import io.ytstream.ports.TransactionId;
import java.util.List;
import java.util.Objects;

/**
 * A transactional writer task's commit: its rows go into the batch transaction, chunk by chunk. A
 * failure after the first chunk may leave part of this attempt's rows in the transaction, and Spark
 * lets another attempt of the partition commit after an authorized one fails: so the batch
 * transaction is aborted, and the batch can only fail (and run again after a restart), never commit
 * a partition's rows twice.
 */
@DrivingUseCase
public final class InsertIntoBatchTransaction {

  /** Hears that an insert failed and the batch transaction is being aborted. */
  @FunctionalInterface
  public interface AbortListener {
    void aborting(TransactionId transaction, RuntimeException cause);
  }

  private final TabletTransactions transactions;
  private final AbortListener onAbort;

  public InsertIntoBatchTransaction(TabletTransactions transactions, AbortListener onAbort) {
    this.transactions = Objects.requireNonNull(transactions, "transactions");
    this.onAbort = Objects.requireNonNull(onAbort, "onAbort");
  }

  /** Inserts every chunk into {@code transaction}; on failure aborts it and rethrows. */
  public void insert(TransactionId transaction, YPath table, Iterable<List<Row>> chunks) {
    TabletTransaction tx = transactions.attach(transaction);
    try {
      for (List<Row> chunk : chunks) {
        if (!chunk.isEmpty()) {
          tx.insertRows(table, chunk);
        }
      }
    } catch (RuntimeException e) {
      onAbort.aborting(transaction, e);
      try {
        tx.abort();
      } catch (RuntimeException abortFailed) {
        e.addSuppressed(abortFailed);
      }
      throw e;
    }
  }
}
