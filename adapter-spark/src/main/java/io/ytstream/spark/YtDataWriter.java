package io.ytstream.spark;

import io.ytstream.core.commit.CommitErrorClassifier;
import io.ytstream.core.commit.CommitOutcome;
import io.ytstream.ports.Row;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.TransactionId;
import io.ytstream.ports.spi.YtCluster;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.util.TaskFailureListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one task's rows.
 *
 * <ul>
 *   <li>Outside a batch transaction (at-least-once, idempotent receiver): rows are sent in chunks
 *       of {@code spark.yt.write.dynBatchSize}, each chunk one tablet transaction of its own
 *       (append to an ordered table, upsert into a sorted one).
 *   <li>In transactional mode: rows are kept in the task until Spark lets the task commit, then
 *       sent into the batch transaction whose id came with the write plan. Spark's output commit
 *       coordinator lets one attempt per partition commit at a time, so a failed-before-commit or
 *       speculative attempt never reaches the transaction. An authorized attempt that fails while
 *       inserting does not fail the stage (Spark 4.x clears its lock and lets a retry commit), so
 *       the writer aborts the batch transaction itself: the batch fails and runs again after a
 *       restart instead of committing the partition's rows twice. A writer that cannot abort (its
 *       executor died) is caught on the driver by {@link BatchWriteJobListener}; for it every
 *       failure after the first insert is marked as such.
 * </ul>
 *
 * Rows for an ordered table carry {@code $tablet_index}: row k of task p goes to tablet {@code (p +
 * k) mod tablets}, so the driver knows how many rows each tablet gets in a batch transaction.
 */
final class YtDataWriter implements DataWriter<InternalRow> {

  private static final Logger LOG = LoggerFactory.getLogger(YtDataWriter.class);
  private static final int CHUNK_ATTEMPTS = 3;

  private final YtWriteSpec spec;
  private final YtCluster cluster;
  private final TransactionId transaction;
  private final int partitionId;
  private final long epochId;
  private final long[] rowsPerTablet;
  private final List<Row> buffer = new ArrayList<>();
  private long rowCount;

  YtDataWriter(YtWriteSpec spec, TransactionId transaction, int partitionId, long epochId) {
    this.spec = spec;
    this.cluster = spec.cluster().connect();
    this.transaction = transaction;
    this.partitionId = partitionId;
    this.epochId = epochId;
    this.rowsPerTablet = new long[spec.sorted() ? 1 : spec.tabletCount()];
  }

  @Override
  public void write(InternalRow record) {
    List<ColumnSpec> columns = spec.columns();
    Map<String, Object> values = new LinkedHashMap<>();
    for (int i = 0; i < columns.size(); i++) {
      ColumnSpec c = columns.get(i);
      Object raw = record.isNullAt(i) ? null : record.get(i, c.sparkType());
      values.put(c.name(), YtTypes.toYtValue(raw, c.sparkType(), c.ytType()));
    }
    int tablet = 0;
    if (!spec.sorted()) {
      tablet = (int) ((partitionId + rowCount) % spec.tabletCount());
      values.put("$tablet_index", (long) tablet);
    }
    rowsPerTablet[tablet]++;
    rowCount++;
    buffer.add(Row.of(values));
    if (transaction == null && buffer.size() >= spec.dynBatchSize()) {
      flushOutsideTransaction();
    }
  }

  private void flushOutsideTransaction() {
    if (buffer.isEmpty()) {
      return;
    }
    List<Row> chunk = List.copyOf(buffer);
    buffer.clear();
    for (int attempt = 1; ; attempt++) {
      try {
        if (spec.sorted()) {
          cluster.outputTables().upsert(spec.path(), chunk);
        } else {
          cluster.outputTables().append(spec.path(), chunk);
        }
        return;
      } catch (RuntimeException e) {
        CommitOutcome outcome = CommitErrorClassifier.classify(e);
        boolean retry =
            (outcome == CommitOutcome.RETRY_LATER || outcome == CommitOutcome.UNKNOWN)
                && attempt < CHUNK_ATTEMPTS;
        if (!retry) {
          throw e;
        }
        // At-least-once: an unknown outcome may have landed; writing again may duplicate rows.
        LOG.warn(
            "writing {} rows to {} failed ({}), trying again", chunk.size(), spec.path(), outcome);
      }
    }
  }

  @Override
  public WriterCommitMessage commit() {
    if (transaction == null) {
      flushOutsideTransaction();
    } else {
      TabletTransaction tx = cluster.transactions().attach(transaction);
      markFailuresFromHereOn();
      try {
        for (int from = 0; from < buffer.size(); from += spec.dynBatchSize()) {
          tx.insertRows(
              spec.path(),
              buffer.subList(from, Math.min(buffer.size(), from + spec.dynBatchSize())));
        }
      } catch (RuntimeException e) {
        // Part of this attempt's rows may be in the batch transaction, and Spark lets another
        // attempt of the partition commit after an authorized one fails: abort the transaction
        // so the batch can only fail (and run again after a restart), never commit twice.
        abortAfterPartialInsert(tx, e);
        throw e;
      }
      buffer.clear();
    }
    return new YtCommitMessage(
        partitionId, epochId, transaction == null ? null : transaction.value(), rowsPerTablet);
  }

  /**
   * From the first insert on, any failure of this task (an insert, {@link #close}, whatever Spark
   * runs next) carries {@link BatchWriteJobListener.InsertsStarted}, so the driver's listener does
   * not take it for a failure before inserting, which a retry may follow harmlessly.
   */
  private void markFailuresFromHereOn() {
    TaskContext task = TaskContext.get();
    if (task != null && !buffer.isEmpty()) {
      String id = transaction.value();
      task.addTaskFailureListener(
          (TaskFailureListener)
              (context, error) ->
                  error.addSuppressed(new BatchWriteJobListener.InsertsStarted(id, partitionId)));
    }
  }

  private void abortAfterPartialInsert(TabletTransaction tx, RuntimeException cause) {
    LOG.warn(
        "inserting rows of partition {} into batch transaction {} failed; aborting the batch"
            + " transaction",
        partitionId,
        transaction);
    try {
      tx.abort();
    } catch (RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  @Override
  public void abort() {
    buffer.clear();
  }

  @Override
  public void close() {
    cluster.close();
  }
}
