package io.ytstream.spark.sink;

import io.ytstream.application.InsertIntoBatchTransaction;
import io.ytstream.application.TransactionalTaskWriter;
import io.ytstream.application.WriterReport;
import io.ytstream.ports.TransactionId;
import io.ytstream.ports.spi.YtCluster;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.util.TaskFailureListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one task's rows in transactional mode: each callback is one call of the application's
 * {@link TransactionalTaskWriter}, which counts each row at its output tablet against the
 * transaction's rows per tablet, keeps the rows until Spark lets the task commit, then sends them
 * into the batch transaction whose id came with the write plan ({@link
 * InsertIntoBatchTransaction}). Spark's output commit coordinator lets one attempt per partition
 * commit at a time, so a failed-before-commit or speculative attempt never reaches the transaction.
 * An authorized attempt that fails while inserting does not fail the stage (Spark 4.x clears its
 * lock and lets a retry commit), so the use case aborts the batch transaction itself. A writer that
 * cannot abort (its executor died) is caught on the driver by {@link BatchWriteJobListener}; for it
 * every failure after the first insert is marked as such.
 *
 * <p>The rows wait in a {@link TransactionRowBuffer}: compact copies, bounded by Spark's execution
 * memory for the task. The driver learns how many rows each tablet gets from the task's report.
 */
final class TransactionalDataWriter implements DataWriter<InternalRow> {

  private static final Logger LOG = LoggerFactory.getLogger(TransactionalDataWriter.class);

  private final YtCluster cluster;
  private final TransactionId transaction;
  private final SinkRows rows;
  private final int partitionId;
  private final long epochId;
  private final TransactionalTaskWriter<InternalRow> writer;

  /** {@code maxRowsPerTablet} is the cluster's rows per tablet per transaction. */
  TransactionalDataWriter(
      YtWriteSpec spec,
      TransactionId transaction,
      int partitionId,
      long epochId,
      long maxRowsPerTablet) {
    this.cluster = spec.cluster().connect();
    this.transaction = transaction;
    this.rows = new SinkRows(spec, partitionId);
    this.partitionId = partitionId;
    this.epochId = epochId;
    this.writer =
        new TransactionalTaskWriter<>(
            new InsertIntoBatchTransaction(
                cluster.transactions(),
                (tx, cause) ->
                    LOG.warn(
                        "inserting rows of partition {} into batch transaction {} failed; aborting"
                            + " the batch transaction",
                        partitionId,
                        tx)),
            transaction,
            epochId,
            spec.path(),
            spec.sorted(),
            partitionId,
            spec.tabletCount(),
            Math.max(1, spec.dynBatchSize()),
            maxRowsPerTablet,
            TransactionRowBuffer.forCurrentTask());
  }

  /**
   * Converts the row now and throws the result away: a value YTsaurus cannot take (out of range,
   * wrong shape) fails the task at this row with its own message, before anything is in the batch
   * transaction, as in the other modes; converted at commit, it would abort the shared transaction
   * and Spark's retries would report the abort instead.
   */
  @Override
  public void write(InternalRow record) {
    rows.checkConvertible(record);
    writer.write(rows.chosenTablet(record), record);
  }

  @Override
  public WriterCommitMessage commit() {
    WriterReport report = writer.commit(rows::toYtRow, this::markFailuresFromHereOn);
    if (report.notKept() != null) {
      // The batch cannot commit: nothing was inserted; the driver fails it with the reason.
      LOG.warn(
          "partition {} of batch {} stopped keeping rows ({}); the batch will fail on the driver",
          partitionId,
          epochId,
          report.notKept());
    }
    return YtCommitMessage.of(partitionId, report);
  }

  /**
   * From the first insert on, any failure of this task (an insert, {@link #close}, whatever Spark
   * runs next) carries {@link BatchWriteJobListener.InsertsStarted}, so the driver's listener does
   * not take it for a failure before inserting, which a retry may follow harmlessly.
   */
  private void markFailuresFromHereOn() {
    TaskContext task = TaskContext.get();
    if (task != null) {
      String id = transaction.value();
      task.addTaskFailureListener(
          (TaskFailureListener)
              (context, error) ->
                  error.addSuppressed(new BatchWriteJobListener.InsertsStarted(id, partitionId)));
    }
  }

  @Override
  public void abort() {
    writer.abort();
  }

  @Override
  public void close() {
    writer.abort();
    cluster.close();
  }
}
