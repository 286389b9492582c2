package io.ytstream.spark.sink;

import io.ytstream.application.WriteChunk;
import io.ytstream.ports.Row;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.TransactionId;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.types.ColumnSpec;
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
 * k) mod tablets}, so the driver knows how many rows each tablet gets in a batch transaction. In a
 * batch transaction the rows wait in a {@link TransactionRowBuffer}: compact copies, bounded by
 * Spark's execution memory for the task and by the transaction's rows per tablet.
 */
public final class YtDataWriter implements DataWriter<InternalRow> {

  private static final Logger LOG = LoggerFactory.getLogger(YtDataWriter.class);

  private final YtWriteSpec spec;
  private final YtCluster cluster;
  private final WriteChunk chunks;
  private final TransactionId transaction;
  private final int partitionId;
  private final long epochId;
  private final long[] rowsPerTablet;
  private final List<Row> buffer = new ArrayList<>();
  private final TransactionRowBuffer kept;
  private final Map<String, Object> scratch = new LinkedHashMap<>();
  private final long maxRowsPerTabletCounter;
  private long rowCount;

  /**
   * {@code maxRowsPerTablet} is the cluster's rows per tablet per transaction; only a writer in a
   * batch transaction uses it.
   */
  YtDataWriter(
      YtWriteSpec spec,
      TransactionId transaction,
      int partitionId,
      long epochId,
      long maxRowsPerTablet) {
    this.spec = spec;
    this.cluster = spec.cluster().connect();
    // At-least-once: a retried unknown outcome may have landed, so the chunk may be written twice.
    this.chunks =
        new WriteChunk(
            cluster.outputTables(),
            (attempt, outcome, error) ->
                LOG.warn("writing rows to {} failed ({}), trying again", spec.path(), outcome));
    this.transaction = transaction;
    this.partitionId = partitionId;
    this.epochId = epochId;
    this.rowsPerTablet = new long[spec.sorted() ? 1 : spec.tabletCount()];
    this.kept = transaction == null ? null : TransactionRowBuffer.forCurrentTask();
    // A sorted output's rows are counted in one counter, spread over its tablets by key.
    this.maxRowsPerTabletCounter =
        spec.sorted() ? saturatedProduct(maxRowsPerTablet, spec.tabletCount()) : maxRowsPerTablet;
  }

  @Override
  public void write(InternalRow record) {
    int tablet = spec.sorted() ? 0 : tabletOf(rowCount);
    rowsPerTablet[tablet]++;
    rowCount++;
    if (kept != null) {
      keepForTransaction(record, tablet);
      return;
    }
    buffer.add(toYtRow(record, rowCount - 1));
    if (buffer.size() >= spec.dynBatchSize()) {
      flushOutsideTransaction();
    }
  }

  /**
   * In a batch transaction rows wait for the task's commit. Once this task alone has more rows for
   * one tablet than the transaction may hold, the batch cannot commit whatever the other tasks
   * bring: the rows are dropped and only counted, so the driver fails the batch with the counts
   * instead of the executor running out of memory.
   */
  private void keepForTransaction(InternalRow record, int tablet) {
    if (rowsPerTablet[tablet] > maxRowsPerTabletCounter && kept.stoppedBecause() == null) {
      kept.stop(
          "its rows for one output tablet passed the limit of "
              + maxRowsPerTabletCounter
              + " per transaction",
          rowCount - 1);
    }
    checkConvertible(record);
    kept.add(record, rowCount - 1);
  }

  private int tabletOf(long rowNumber) {
    return (int) ((partitionId + rowNumber) % spec.tabletCount());
  }

  private Row toYtRow(InternalRow record, long rowNumber) {
    Map<String, Object> values = new LinkedHashMap<>();
    convertInto(values, record);
    if (!spec.sorted()) {
      values.put("$tablet_index", (long) tabletOf(rowNumber));
    }
    return Row.of(values);
  }

  private void convertInto(Map<String, Object> values, InternalRow record) {
    List<ColumnSpec> columns = spec.columns();
    for (int i = 0; i < columns.size(); i++) {
      ColumnSpec c = columns.get(i);
      Object raw = record.isNullAt(i) ? null : record.get(i, c.sparkType());
      c.writeInto(values, raw);
    }
  }

  /**
   * Converts a kept row now and throws the result away: a value YTsaurus cannot take (out of range,
   * wrong shape) fails the task at this row with its own message, before anything is in the batch
   * transaction, as in the other modes; converted at commit, it would abort the shared transaction
   * and Spark's retries would report the abort instead.
   */
  private void checkConvertible(InternalRow record) {
    scratch.clear();
    convertInto(scratch, record);
  }

  private static long saturatedProduct(long a, long b) {
    long product = a * b;
    return b != 0 && product / b != a ? Long.MAX_VALUE : product;
  }

  private void flushOutsideTransaction() {
    if (buffer.isEmpty()) {
      return;
    }
    List<Row> chunk = List.copyOf(buffer);
    buffer.clear();
    chunks.write(spec.path(), spec.sorted(), chunk);
  }

  @Override
  public WriterCommitMessage commit() {
    if (transaction == null) {
      flushOutsideTransaction();
    } else {
      String stopped = kept.stoppedBecause();
      if (stopped != null) {
        // The batch cannot commit: insert nothing, report why, and let the driver fail it.
        LOG.warn(
            "partition {} of batch {} stopped keeping rows after {} rows ({}); the batch will"
                + " fail on the driver",
            partitionId,
            epochId,
            kept.stoppedAtRow(),
            stopped);
        return new YtCommitMessage(
            partitionId,
            epochId,
            transaction.value(),
            rowsPerTablet,
            "partition " + partitionId + " stopped at row " + kept.stoppedAtRow() + ": " + stopped);
      }
      insertIntoTransaction();
    }
    return new YtCommitMessage(
        partitionId,
        epochId,
        transaction == null ? null : transaction.value(),
        rowsPerTablet,
        null);
  }

  private void insertIntoTransaction() {
    TabletTransaction tx = cluster.transactions().attach(transaction);
    List<InternalRow> rows = kept.rows();
    markFailuresFromHereOn(!rows.isEmpty());
    try {
      for (int from = 0; from < rows.size(); from += spec.dynBatchSize()) {
        int to = Math.min(rows.size(), from + spec.dynBatchSize());
        List<Row> chunk = new ArrayList<>(to - from);
        for (int k = from; k < to; k++) {
          chunk.add(toYtRow(rows.get(k), k));
        }
        tx.insertRows(spec.path(), chunk);
      }
    } catch (RuntimeException e) {
      // Part of this attempt's rows may be in the batch transaction, and Spark lets another
      // attempt of the partition commit after an authorized one fails: abort the transaction
      // so the batch can only fail (and run again after a restart), never commit twice.
      abortAfterPartialInsert(tx, e);
      throw e;
    } finally {
      kept.release();
    }
  }

  /**
   * From the first insert on, any failure of this task (an insert, {@link #close}, whatever Spark
   * runs next) carries {@link BatchWriteJobListener.InsertsStarted}, so the driver's listener does
   * not take it for a failure before inserting, which a retry may follow harmlessly.
   */
  private void markFailuresFromHereOn(boolean inserting) {
    TaskContext task = TaskContext.get();
    if (task != null && inserting) {
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
    if (kept != null) {
      kept.release();
    }
  }

  @Override
  public void close() {
    if (kept != null) {
      kept.release();
    }
    cluster.close();
  }
}
