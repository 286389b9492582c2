package io.ytstream.spark.sink;

import io.ytstream.application.BatchShareNotCommittedException;
import io.ytstream.application.BatchShareOutcome;
import io.ytstream.application.BatchShareTooLargeException;
import io.ytstream.application.ProducerTaskWriter;
import io.ytstream.application.PushBatchShare;
import io.ytstream.core.delivery.BatchShareDecision;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.config.YtSettings;
import java.util.Optional;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spark's writer of one task's share of a micro-batch into a queue: each callback is one call of
 * {@link ProducerTaskWriter} (rows converted by type, pushed a chunk at a time through the task's
 * producer session, finished at the commit, aborted on failure), plus the translation of its
 * refusals into errors that name the option to change, and the log of what the share found.
 */
final class YtProducerDataWriter implements DataWriter<InternalRow> {

  private static final Logger LOG = LoggerFactory.getLogger(YtProducerDataWriter.class);

  private final YtWriteSpec spec;
  private final ProducerTarget target;
  private final int partitionId;
  private final long epochId;
  private final int chunkSize;
  private final SinkRows rows;
  private final ProducerTaskWriter writer;
  private YtCluster cluster;

  YtProducerDataWriter(YtWriteSpec spec, ProducerTarget target, int partitionId, long epochId) {
    this.spec = spec;
    this.target = target;
    this.partitionId = partitionId;
    this.epochId = epochId;
    this.chunkSize = Math.max(1, spec.dynBatchSize());
    this.rows = new SinkRows(spec, partitionId);
    this.writer =
        new ProducerTaskWriter(
            this::connect,
            new ProducerTaskWriter.Share(
                target.producer(),
                spec.path(),
                target.queryId(),
                partitionId,
                epochId,
                spec.tabletCount(),
                chunkSize,
                target.maxRowsPerTablet(),
                target.sourceEnd(epochId),
                target.transactionTimeout()));
  }

  @Override
  public void write(InternalRow record) {
    try {
      writer.write(rows.chosenTablet(record), tablet -> rows.toYtRow(record, tablet));
    } catch (BatchShareTooLargeException e) {
      throw tooManyRows(e.tablet(), e.rows(), e);
    } catch (BatchShareNotCommittedException e) {
      throw withTimeoutHint(e);
    }
  }

  /** The share's use case over a connection opened at the first push. */
  private PushBatchShare connect() {
    cluster = spec.cluster().connect();
    return new PushBatchShare(cluster.queueProducers(), cluster.transactions());
  }

  @Override
  public WriterCommitMessage commit() {
    Optional<BatchShareOutcome> committed;
    try {
      committed = writer.commit();
    } catch (BatchShareTooLargeException e) {
      throw tooManyRows(e.tablet(), e.rows(), e);
    } catch (BatchShareNotCommittedException e) {
      throw withTimeoutHint(e);
    } finally {
      closeCluster();
    }
    long[] rowsPerTablet = writer.rowsPerTablet();
    if (committed.isEmpty()) {
      return YtCommitMessage.producerShare(partitionId, epochId, rowsPerTablet, 0, 0, "empty");
    }
    BatchShareOutcome outcome = committed.get();
    writer
        .session()
        .flatMap(PushBatchShare.OpenSession::lastPushed)
        .ifPresent(
            last ->
                LOG.debug(
                    "batch {}, task partition {}: the session held batch {} ({} rows) of query {}",
                    epochId,
                    partitionId,
                    last.batchId(),
                    last.rowCount(),
                    last.queryId()));
    report(outcome);
    return YtCommitMessage.producerShare(
        partitionId,
        epochId,
        rowsPerTablet,
        outcome.writtenRowCount(),
        outcome.skippedRowCount(),
        outcome.decision().action().name());
  }

  private void report(BatchShareOutcome outcome) {
    BatchShareDecision d = outcome.decision();
    switch (d.action()) {
      case ALREADY_PUSHED ->
          LOG.info(
              "batch {}, task partition {}: the {} rows were already in {} (an earlier attempt or"
                  + " run pushed them, and its session holds them); not pushed again",
              epochId,
              partitionId,
              d.rowCount(),
              spec.path());
      case OUTPUT_CHANGED ->
          LOG.warn(
              "batch {}, task partition {}: an earlier attempt pushed {} rows into {} for this"
                  + " batch and this attempt has {}: the query's output for this task changed"
                  + " between attempts (a non-deterministic expression, rows that moved to another"
                  + " task, or input rows trimmed after the earlier attempt read them, which"
                  + " fail_on_data_loss=false skips). Nothing pushed: the queue keeps the earlier"
                  + " attempt's rows",
              epochId,
              partitionId,
              d.earlierRowCount(),
              spec.path(),
              d.rowCount());
      case LATER_BATCH_PUSHED ->
          LOG.warn(
              "batch {}, task partition {}: its producer session already holds a later batch, so"
                  + " the checkpoint is behind what this query pushed into {} (an old checkpoint"
                  + " copy, or a second driver that lags); nothing pushed",
              epochId,
              partitionId,
              spec.path());
      default -> {
        if (outcome.skippedRowCount() > 0) {
          LOG.info(
              "batch {}, task partition {}: {} of {} rows were already in {}; the server skipped"
                  + " them",
              epochId,
              partitionId,
              outcome.skippedRowCount(),
              d.rowCount(),
              spec.path());
        }
      }
    }
  }

  /**
   * A share whose transaction expired between two chunks: the fix is the transaction's timeout,
   * named with its value; any other share that did not land is reported as it came.
   */
  private RuntimeException withTimeoutHint(BatchShareNotCommittedException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof YtException yt && yt.hasCode(YtErrorCode.NO_SUCH_TRANSACTION)) {
        return new IllegalStateException(
            e.getMessage()
                + ". Raise "
                + YtSettings.TRANSACTION_TIMEOUT
                + " (now "
                + target.transactionTimeout().toMillis()
                + ") above the longest pause between two chunks of "
                + chunkSize
                + " rows ("
                + YtSettings.DYN_BATCH_SIZE
                + "), or lower "
                + YtSettings.DYN_BATCH_SIZE,
            e);
      }
    }
    return e;
  }

  private IllegalArgumentException tooManyRows(long tablet, long rows, Throwable cause) {
    IllegalArgumentException e =
        new IllegalArgumentException(
            "option producer_path: task partition "
                + partitionId
                + " of batch "
                + epochId
                + " has "
                + rows
                + " rows for tablet "
                + tablet
                + " of "
                + spec.path()
                + ", more than "
                + YtSettings.MAX_ROWS_PER_TABLET
                + " = "
                + target.maxRowsPerTablet()
                + ", the rows one tablet transaction may write into one tablet (a task's share is"
                + " pushed in one). Nothing of this task landed: the share stopped before the chunk"
                + " that crossed the limit went out, and its transaction is aborted. Lower option"
                + " max_rows_per_partition (or max_rows_per_trigger) of the yt source, reshard "
                + spec.path()
                + " to more tablets, or raise the cluster's max_rows_per_transaction and "
                + YtSettings.MAX_ROWS_PER_TABLET
                + " with it");
    if (cause != null) {
      e.initCause(cause);
    }
    return e;
  }

  @Override
  public void abort() {
    writer.abort();
    closeCluster();
  }

  @Override
  public void close() {
    // Spark closes a writer it neither committed nor aborted only when the task died anyway.
    writer.abort();
    closeCluster();
  }

  private void closeCluster() {
    if (cluster != null) {
      cluster.close();
      cluster = null;
    }
  }
}
