package io.ytstream.application;

import io.ytstream.application.checkpoint.BatchRanges;
import io.ytstream.application.checkpoint.QueryCheckpoint;
import io.ytstream.core.commit.CommitOutcome;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.ports.ConsumerOffsets;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.TabletTransactions;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The driver's side of a transactional batch. {@link #openBatch} is the sink's {@code
 * createStreamingWriterFactory}: it starts the batch transaction the executors write into. {@link
 * #commit} is the sink's {@code commit(epochId, messages)}: the batch's ranges come from the
 * checkpoint ({@link QueryCheckpoint#batchRanges}: the sink is not told the source's offsets, but
 * Spark writes {@code offsets/N} before the batch runs), the writers' reports are checked against
 * the batch transaction, the per-tablet row limit and the executors' memory, and {@link
 * CommitTransactionalBatch} advances, commits and resolves. On any failure the batch transaction is
 * aborted: nothing is written and the consumer does not move. Errors say what to change. A query
 * stopping mid-commit is the exception: no request leaves its interrupted thread, so the
 * transaction expires, and the restart resolves whether the commit landed.
 */
@DrivingUseCase
public final class CommitTransactionalSink {

  /** What a commit did: committed now, or found applied by an earlier attempt. */
  public enum Result {
    COMMITTED,
    ALREADY_APPLIED,
    /** The batch read no yt source rows: its output was committed without a consumer advance. */
    COMMITTED_WITHOUT_SOURCE
  }

  private final CommitTransactionalBatch protocol;
  private final TabletTransactions transactions;
  private final Duration transactionTimeout;
  private final QueryCheckpoint checkpoint;
  private final OutputTarget output;
  private final long maxRowsPerTablet;

  /**
   * @param transactionTimeout the batch transaction's timeout; the caller renews its lease ({@link
   *     TransactionLease}) until the commit or the abort
   * @param maxRowsPerTablet the cluster's rows per tablet in one transaction
   */
  public CommitTransactionalSink(
      ConsumerOffsets consumers,
      TabletTransactions transactions,
      Duration transactionTimeout,
      QueryCheckpoint checkpoint,
      OutputTarget output,
      long maxRowsPerTablet) {
    this.protocol = new CommitTransactionalBatch(consumers);
    this.transactions = Objects.requireNonNull(transactions, "transactions");
    this.transactionTimeout = Objects.requireNonNull(transactionTimeout, "transactionTimeout");
    this.checkpoint = Objects.requireNonNull(checkpoint, "checkpoint");
    this.output = Objects.requireNonNull(output, "output");
    this.maxRowsPerTablet = maxRowsPerTablet;
  }

  /**
   * Starts the transaction that one batch's writers insert into and {@link #commit} commits; the
   * caller owns its lease.
   */
  public TabletTransaction openBatch() {
    return transactions.start(transactionTimeout);
  }

  /**
   * Returns normally when the batch's rows and offsets are in the output exactly once; otherwise
   * the transaction is aborted (by the checks here, or by {@link CommitTransactionalBatch} once it
   * has the transaction) and the error thrown.
   */
  public Result commit(long epochId, TabletTransaction tx, List<WriterReport> reports) {
    Checked checked;
    try {
      checked = check(epochId, tx, reports);
    } catch (RuntimeException e) {
      CommitTransactionalBatch.abortQuietly(tx);
      throw e;
    }
    // From here CommitTransactionalBatch owns the transaction: it ends it on every failure.
    return commitChecked(epochId, tx, checked);
  }

  /** What the checks before the commit found: the batch's ranges and its rows per tablet. */
  private record Checked(BatchRanges batch, BatchSize read, long[] perTablet) {}

  private Checked check(long epochId, TabletTransaction tx, List<WriterReport> reports) {
    long[] perTablet = new long[output.sorted() ? 1 : output.tabletCount()];
    for (WriterReport m : reports) {
      if (!tx.id().value().equals(m.transactionId()) || m.epochId() != epochId) {
        throw new IllegalStateException(
            "a writer of batch "
                + epochId
                + " reports transaction "
                + m.transactionId()
                + " of epoch "
                + m.epochId()
                + ", but the batch transaction is "
                + tx.id()
                + ": refusing to commit");
      }
      long[] rows = m.rowsPerTablet();
      for (int t = 0; t < rows.length && t < perTablet.length; t++) {
        perTablet[t] += rows[t];
      }
    }
    BatchRanges batch = checkpoint.batchRanges(epochId);
    BatchSize read = BatchSize.of(batch);
    checkTabletLimit(epochId, perTablet, read);
    checkEveryRowKept(epochId, reports, read);
    return new Checked(batch, read, perTablet);
  }

  private Result commitChecked(long epochId, TabletTransaction tx, Checked checked) {
    BatchRanges batch = checked.batch();
    CommitTransactionalBatch.Result result;
    try {
      result = protocol.commit(epochId, tx, batch.ranges(), batch.consumers());
    } catch (BatchNotCommittedException e) {
      if (e.outcome() == CommitOutcome.FAILED
          && e.getCause() instanceof YtException yt
          && yt.hasCode(YtErrorCode.TOO_MANY_ROWS_IN_TRANSACTION)) {
        throw refusedByTheCluster(epochId, checked.perTablet(), checked.read(), e.getCause());
      }
      if (e.outcome() == CommitOutcome.FENCED) {
        throw new IllegalStateException(e.getMessage() + "; " + sharedConsumer(batch), e);
      }
      if (e.outcome() == CommitOutcome.RETRY_LATER
          && e.getCause() instanceof YtException yt
          && yt.hasCode(YtErrorCode.TRANSACTION_LOCK_CONFLICT)) {
        throw new IllegalStateException(
            "batch "
                + epochId
                + "'s transaction lost a row lock to a concurrent transaction that committed"
                + " first: "
                + sharedConsumer(batch)
                + ", or another writer wrote the same keys of "
                + output.path()
                + ". Nothing was written and the consumer did not move; the batch runs again"
                + " with a new transaction when the query restarts",
            e);
      }
      throw e;
    }
    return switch (result) {
      case COMMITTED -> Result.COMMITTED;
      case ALREADY_APPLIED -> Result.ALREADY_APPLIED;
      // No yt source rows in this batch (a no-data batch, or the query reads another source):
      // the output alone is committed, with no consumer to decide recovery.
      case NO_SOURCE_ROWS -> Result.COMMITTED_WITHOUT_SOURCE;
    };
  }

  /** The usual cause of a lost consumer row, worded as at-least-once mode words it. */
  private static String sharedConsumer(BatchRanges batch) {
    Set<String> paths = new TreeSet<>();
    batch.consumers().values().forEach(c -> paths.add(c.path().value()));
    return "another query or an old driver is using the same consumer ("
        + String.join(", ", paths)
        + "): give each query its own consumer, or stop the other one";
  }

  /** The most rows the batch read from one queue partition, and from how many partitions. */
  private record BatchSize(long largestRange, int partitions) {

    static BatchSize of(BatchRanges batch) {
      long largest = 0;
      for (OffsetRange r : batch.ranges()) {
        largest = Math.max(largest, r.rowCount());
      }
      return new BatchSize(largest, batch.ranges().size());
    }

    String describe() {
      return partitions == 0
          ? "This batch read no yt queue rows"
          : "This batch read up to "
              + largestRange
              + " rows from each of "
              + partitions
              + " queue partitions (option max_rows_per_partition caps that; its default is "
              + PlanLimits.DEFAULT_MAX_ROWS_PER_PARTITION
              + ")";
    }
  }

  private void checkTabletLimit(long epochId, long[] perTablet, BatchSize read) {
    long worst = 0;
    for (long rows : perTablet) {
      worst = Math.max(worst, rows);
    }
    long limit = output.sorted() ? maxRowsPerTablet * output.tabletCount() : maxRowsPerTablet;
    if (worst > limit) {
      throw tooManyRows(epochId, perTablet, read);
    }
  }

  /**
   * A task that ran out of memory for its rows (Spark's execution memory for the task) kept none
   * and inserted none: fail the batch before committing anything.
   */
  private void checkEveryRowKept(long epochId, List<WriterReport> reports, BatchSize read) {
    String first = null;
    for (WriterReport m : reports) {
      if (m != null && m.notKept() != null && first == null) {
        first = m.notKept();
      }
    }
    if (first == null) {
      return;
    }
    throw new BatchTooLargeException(
        "batch "
            + epochId
            + " is too large for the executors' memory in transactional mode: each write task"
            + " keeps its rows in memory until the batch transaction commits, and "
            + first
            + ". "
            + read.describe()
            + ". Lower option max_rows_per_partition"
            + (read.largestRange() > 1
                ? " (now at least "
                    + read.largestRange()
                    + "; try "
                    + Math.max(1, read.largestRange() / 4)
                    + ")"
                : "")
            + ", or give executors more memory (spark.executor.memory). Nothing was written"
            + " and the consumer did not move. "
            + sameRowsAgain(
                epochId,
                "give executors more memory, or set option max_rows_per_task to run it in smaller tasks"),
        null);
  }

  private BatchTooLargeException tooManyRows(long epochId, long[] perTablet, BatchSize read) {
    long total = 0;
    long worst = 0;
    for (long rows : perTablet) {
      total += rows;
      worst = Math.max(worst, rows);
    }
    long needed =
        Math.max(output.tabletCount() + 1, (total + maxRowsPerTablet - 1) / maxRowsPerTablet);
    String fit =
        read.partitions() == 0
            ? ""
            : " For a query that writes one row per row read, max_rows_per_partition="
                + Math.max(1, maxRowsPerTablet * output.tabletCount() / read.partitions())
                + " fits the output as it is.";
    return new BatchTooLargeException(
        "batch "
            + epochId
            + " would write "
            + total
            + " rows into "
            + output.path()
            + " in one transaction, "
            + worst
            + " of them into one tablet, but YTsaurus allows "
            + maxRowsPerTablet
            + " rows per tablet in one transaction (\"Transaction affects too many rows in"
            + " tablet\"). The output needs at least "
            + needed
            + " tablets (it has "
            + output.tabletCount()
            + "): reshard "
            + output.path()
            + ", or lower option max_rows_per_partition. "
            + read.describe()
            + "."
            + fit
            + " Nothing was written and the consumer did not move. "
            + sameRowsAgain(epochId, "reshard the output"),
        null);
  }

  /**
   * The cluster refused the commit for too many rows in a tablet, though every tablet's count was
   * within {@code maxRowsPerTablet}: the cluster's limit is lower than the query was told, so the
   * tablets needed cannot be reckoned from it; the user is told to set it to the cluster's.
   */
  private BatchTooLargeException refusedByTheCluster(
      long epochId, long[] perTablet, BatchSize read, Throwable cause) {
    long total = 0;
    long worst = 0;
    for (long rows : perTablet) {
      total += rows;
      worst = Math.max(worst, rows);
    }
    // A sorted output's rows go to tablets by key: only one tablet tells how many one took.
    boolean oneTabletKnown = !output.sorted() || output.tabletCount() == 1;
    return new BatchTooLargeException(
        "batch "
            + epochId
            + " would write "
            + total
            + " rows into "
            + output.path()
            + " in one transaction"
            + (oneTabletKnown ? ", " + worst + " of them into one tablet," : "")
            + " and YTsaurus refused the transaction (\"Transaction affects too many rows in"
            + " tablet\"), though this query was told it allows "
            + maxRowsPerTablet
            + " rows per tablet in one transaction (spark.yt.write.maxRowsPerTabletPerTransaction):"
            + " the cluster's limit is lower, so ytstream could not refuse the batch before sending"
            + " it. Set spark.yt.write.maxRowsPerTabletPerTransaction to the cluster's limit"
            + (oneTabletKnown
                ? " (at most " + (worst - 1) + ", since " + worst + " were refused)"
                : "")
            + "; ytstream then refuses a batch that does not fit before anything is written and"
            + " names the tablets it needs. "
            + read.describe()
            + ". Nothing was written and the consumer did not move. "
            + sameRowsAgain(epochId, "reshard the output"),
        cause);
  }

  /**
   * Spark logged the batch's range in the checkpoint before running it, and a restarted query runs
   * a logged batch again as it is: a new {@code max_rows_per_partition} sizes later batches only.
   */
  private static String sameRowsAgain(long epochId, String fix) {
    return "Batch "
        + epochId
        + "'s range is already in the checkpoint's offset log, so a restarted query runs it again"
        + " with the same rows: a lower max_rows_per_partition sizes the batches after it; for"
        + " this one, "
        + fix
        + ".";
  }
}
