package io.ytstream.spark.sink;

import io.ytstream.application.BatchNotCommittedException;
import io.ytstream.application.CommitTransactionalBatch;
import io.ytstream.core.commit.CommitOutcome;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.checkpoint.CheckpointBatchRanges;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's end of a transactional batch: the batch's ranges come from the checkpoint ({@link
 * CheckpointBatchRanges}), the writers' reports are checked against the per-tablet row limit and
 * the executors' memory, and the application's {@link CommitTransactionalBatch} advances, commits
 * and resolves. Its errors are turned into messages that say what to change.
 */
final class TransactionalSinkCommit {

  private static final Logger LOG = LoggerFactory.getLogger(TransactionalSinkCommit.class);

  private final CommitTransactionalBatch protocol;
  private final YtWriteSpec spec;
  private final Path checkpointRoot;
  private final Configuration hadoopConf;
  private final long maxRowsPerTablet;

  TransactionalSinkCommit(
      YtCluster cluster,
      YtWriteSpec spec,
      Path checkpointRoot,
      Configuration hadoopConf,
      long maxRowsPerTablet) {
    this.protocol = new CommitTransactionalBatch(cluster.consumerOffsets());
    this.spec = spec;
    this.checkpointRoot = checkpointRoot;
    this.hadoopConf = hadoopConf;
    this.maxRowsPerTablet = maxRowsPerTablet;
  }

  /** Returns normally when the batch's rows and offsets are in the output exactly once. */
  void commit(long epochId, TabletTransaction tx, YtCommitMessage[] messages) {
    long[] perTablet = new long[spec.sorted() ? 1 : spec.tabletCount()];
    for (YtCommitMessage m : messages) {
      if (m == null) {
        continue;
      }
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
    CheckpointBatchRanges batch = CheckpointBatchRanges.read(checkpointRoot, hadoopConf, epochId);
    BatchSize read = BatchSize.of(batch);
    checkTabletLimit(epochId, perTablet, read);
    checkEveryRowKept(epochId, messages, read);

    if (batch.ranges().isEmpty()) {
      // No yt source rows in this batch (a no-data batch, or the query reads another source):
      // the output alone is committed, with no consumer to decide recovery.
      LOG.warn(
          "batch {} has no yt source ranges: committing its output without a consumer advance",
          epochId);
    }
    CommitTransactionalBatch.Result result;
    try {
      result = protocol.commit(epochId, tx, batch.ranges(), batch.consumers());
    } catch (BatchNotCommittedException e) {
      if (e.outcome() == CommitOutcome.FAILED
          && e.getCause() instanceof YtException yt
          && yt.hasCode(YtErrorCode.TOO_MANY_ROWS_IN_TRANSACTION)) {
        throw tooManyRows(epochId, perTablet, read, e.getCause());
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
                + spec.path()
                + ". Nothing was written and the consumer did not move; the batch runs again"
                + " with a new transaction when the query restarts",
            e);
      }
      throw e;
    }
    if (result == CommitTransactionalBatch.Result.ALREADY_APPLIED) {
      LOG.info("batch {} was applied by an earlier attempt", epochId);
    }
  }

  /** The usual cause of a lost consumer row, worded as at-least-once mode words it. */
  private static String sharedConsumer(CheckpointBatchRanges batch) {
    Set<String> paths = new TreeSet<>();
    batch.consumers().values().forEach(c -> paths.add(c.path().value()));
    return "another query or an old driver is using the same consumer ("
        + String.join(", ", paths)
        + "): give each query its own consumer, or stop the other one";
  }

  /** The most rows the batch read from one queue partition, and from how many partitions. */
  private record BatchSize(long largestRange, int partitions) {

    static BatchSize of(CheckpointBatchRanges batch) {
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
    long limit = spec.sorted() ? maxRowsPerTablet * spec.tabletCount() : maxRowsPerTablet;
    if (worst > limit) {
      throw tooManyRows(epochId, perTablet, read, null);
    }
  }

  /**
   * A task that ran out of memory for its rows (Spark's execution memory for the task) kept none
   * and inserted none: fail the batch before committing anything.
   */
  private void checkEveryRowKept(long epochId, YtCommitMessage[] messages, BatchSize read) {
    String first = null;
    for (YtCommitMessage m : messages) {
      if (m != null && m.notKept() != null && first == null) {
        first = m.notKept();
      }
    }
    if (first == null) {
      return;
    }
    throw new IllegalArgumentException(
        "batch "
            + epochId
            + " is too large for the executors' memory in transactional mode: each write task"
            + " keeps its rows in memory until the batch transaction commits, and "
            + first
            + ". "
            + read.describe()
            + ". Lower option max_rows_per_partition"
            + (read.largestRange() > 1
                ? " (now at least " + read.largestRange() + "; try " + read.largestRange() / 4 + ")"
                : "")
            + ", or give executors more memory (spark.executor.memory). Nothing was written"
            + " and the consumer did not move.");
  }

  private IllegalArgumentException tooManyRows(
      long epochId, long[] perTablet, BatchSize read, Throwable cause) {
    long total = 0;
    long worst = 0;
    for (long rows : perTablet) {
      total += rows;
      worst = Math.max(worst, rows);
    }
    long needed =
        Math.max(spec.tabletCount() + 1, (total + maxRowsPerTablet - 1) / maxRowsPerTablet);
    String fit =
        read.partitions() == 0
            ? ""
            : " For a query that writes one row per row read, max_rows_per_partition="
                + Math.max(1, maxRowsPerTablet * spec.tabletCount() / read.partitions())
                + " fits the output as it is.";
    return new IllegalArgumentException(
        "batch "
            + epochId
            + " would write "
            + total
            + " rows into "
            + spec.path()
            + " in one transaction, "
            + worst
            + " of them into one tablet, but YTsaurus allows "
            + maxRowsPerTablet
            + " rows per tablet in one transaction (\"Transaction affects too many rows in"
            + " tablet\"). The output needs at least "
            + needed
            + " tablets (it has "
            + spec.tabletCount()
            + "): reshard "
            + spec.path()
            + ", or lower option max_rows_per_partition. "
            + read.describe()
            + "."
            + fit
            + " Nothing was written and the consumer did not move.",
        cause);
  }

  static void abortQuietly(TabletTransaction tx) {
    CommitTransactionalBatch.abortQuietly(tx);
  }
}
