package io.ytstream.spark.sink;

import io.ytstream.application.InsertIntoBatchTransaction;
import io.ytstream.ports.Row;
import io.ytstream.ports.TransactionId;
import io.ytstream.ports.spi.YtCluster;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.util.TaskFailureListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one task's rows in transactional mode: rows are kept in the task until Spark lets the task
 * commit, then sent into the batch transaction whose id came with the write plan ({@link
 * InsertIntoBatchTransaction}). Spark's output commit coordinator lets one attempt per partition
 * commit at a time, so a failed-before-commit or speculative attempt never reaches the transaction.
 * An authorized attempt that fails while inserting does not fail the stage (Spark 4.x clears its
 * lock and lets a retry commit), so the use case aborts the batch transaction itself. A writer that
 * cannot abort (its executor died) is caught on the driver by {@link BatchWriteJobListener}; for it
 * every failure after the first insert is marked as such.
 *
 * <p>The rows wait in a {@link TransactionRowBuffer}: compact copies, bounded by Spark's execution
 * memory for the task and by the transaction's rows per tablet. The driver learns how many rows
 * each tablet gets from the task's report.
 */
final class TransactionalDataWriter implements DataWriter<InternalRow> {

  private static final Logger LOG = LoggerFactory.getLogger(TransactionalDataWriter.class);

  private final YtWriteSpec spec;
  private final YtCluster cluster;
  private final TransactionId transaction;
  private final SinkRows rows;
  private final int partitionId;
  private final long epochId;
  private final long[] rowsPerTablet;
  private final TransactionRowBuffer kept;
  private final long maxRowsPerTabletCounter;
  private long rowCount;

  /** {@code maxRowsPerTablet} is the cluster's rows per tablet per transaction. */
  TransactionalDataWriter(
      YtWriteSpec spec,
      TransactionId transaction,
      int partitionId,
      long epochId,
      long maxRowsPerTablet) {
    this.spec = spec;
    this.cluster = spec.cluster().connect();
    this.transaction = transaction;
    this.rows = new SinkRows(spec, partitionId);
    this.partitionId = partitionId;
    this.epochId = epochId;
    this.rowsPerTablet = rows.newTabletCounters();
    this.kept = TransactionRowBuffer.forCurrentTask();
    // A sorted output's rows are counted in one counter, spread over its tablets by key.
    this.maxRowsPerTabletCounter =
        spec.sorted() ? saturatedProduct(maxRowsPerTablet, spec.tabletCount()) : maxRowsPerTablet;
  }

  /**
   * Once this task alone has more rows for one tablet than the transaction may hold, the batch
   * cannot commit whatever the other tasks bring: the rows are dropped and only counted, so the
   * driver fails the batch with the counts instead of the executor running out of memory.
   */
  @Override
  public void write(InternalRow record) {
    int tablet = rows.tabletOf(rowCount);
    rowsPerTablet[tablet]++;
    rowCount++;
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

  /**
   * Converts a kept row now and throws the result away: a value YTsaurus cannot take (out of range,
   * wrong shape) fails the task at this row with its own message, before anything is in the batch
   * transaction, as in the other modes; converted at commit, it would abort the shared transaction
   * and Spark's retries would report the abort instead.
   */
  private void checkConvertible(InternalRow record) {
    rows.checkConvertible(record);
  }

  private static long saturatedProduct(long a, long b) {
    long product = a * b;
    return b != 0 && product / b != a ? Long.MAX_VALUE : product;
  }

  @Override
  public WriterCommitMessage commit() {
    String stopped = kept.stoppedBecause();
    if (stopped != null) {
      // The batch cannot commit: insert nothing, report why, and let the driver fail it.
      LOG.warn(
          "partition {} of batch {} stopped keeping rows after {} rows ({}); the batch will fail"
              + " on the driver",
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
    List<InternalRow> keptRows = kept.rows();
    markFailuresFromHereOn(!keptRows.isEmpty());
    try {
      new InsertIntoBatchTransaction(
              cluster.transactions(),
              (tx, cause) ->
                  LOG.warn(
                      "inserting rows of partition {} into batch transaction {} failed; aborting"
                          + " the batch transaction",
                      partitionId,
                      tx))
          .insert(transaction, spec.path(), chunks(keptRows));
    } finally {
      kept.release();
    }
    return new YtCommitMessage(partitionId, epochId, transaction.value(), rowsPerTablet, null);
  }

  /** The kept rows in chunks of {@code dynBatchSize}, converted one chunk at a time. */
  private Iterable<List<Row>> chunks(List<InternalRow> keptRows) {
    int size = spec.dynBatchSize();
    return () ->
        new Iterator<>() {
          private int from;

          @Override
          public boolean hasNext() {
            return from < keptRows.size();
          }

          @Override
          public List<Row> next() {
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            int to = Math.min(keptRows.size(), from + size);
            List<Row> chunk = new ArrayList<>(to - from);
            for (int k = from; k < to; k++) {
              chunk.add(rows.toYtRow(keptRows.get(k), rows.tabletOf(k)));
            }
            from = to;
            return chunk;
          }
        };
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

  @Override
  public void abort() {
    kept.release();
  }

  @Override
  public void close() {
    kept.release();
    cluster.close();
  }
}
