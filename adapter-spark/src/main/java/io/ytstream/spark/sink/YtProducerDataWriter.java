package io.ytstream.spark.sink;

import io.ytstream.application.BatchShareNotCommittedException;
import io.ytstream.application.BatchShareOutcome;
import io.ytstream.application.BatchShareTooLargeException;
import io.ytstream.application.OutputTablets;
import io.ytstream.application.PushBatchShare;
import io.ytstream.core.delivery.BatchShareDecision;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.ports.Row;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.config.YtSettings;
import io.ytstream.spark.types.ColumnSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one task's share of a micro-batch into a queue through a queue producer session of the
 * task's own ({@link PushBatchShare}), a chunk at a time: rows are converted as they come and kept
 * only until {@code spark.yt.write.dynBatchSize} have gathered, then pushed into the share's tablet
 * transaction, numbered from the batch id, so a task holds one chunk, never its whole share.
 * Spark's commit of the task finishes the share (the last push carries the session's user_meta) and
 * commits the transaction: the share lands all or none, and a replayed batch is skipped.
 *
 * <p>The session is opened when the first chunk is full, or at the commit for a share of one chunk
 * or less. Opening bumps the session's epoch, so an older attempt still running (a lost executor, a
 * second driver) is fenced from then on: its next push fails, or its commit meets the session row's
 * lock, and nothing of it lands. An attempt that Spark's output commit coordinator does not let
 * commit never commits its transaction. Row k of task p goes to tablet {@code (p + k) mod tablets};
 * rows are counted per tablet as they are handed to the share, and a share with more rows for one
 * tablet than one transaction may write fails before the chunk that crosses the limit is pushed,
 * its transaction aborted.
 */
final class YtProducerDataWriter implements DataWriter<InternalRow> {

  private static final Logger LOG = LoggerFactory.getLogger(YtProducerDataWriter.class);

  private final YtWriteSpec spec;
  private final ProducerTarget target;
  private final int partitionId;
  private final long epochId;
  private final int chunkSize;
  private final long[] rowsPerTablet;
  private List<Row> chunk;
  private long rowCount;
  private YtCluster cluster;
  private PushBatchShare shares;
  private PushBatchShare.Share share;

  YtProducerDataWriter(YtWriteSpec spec, ProducerTarget target, int partitionId, long epochId) {
    this.spec = spec;
    this.target = target;
    this.partitionId = partitionId;
    this.epochId = epochId;
    this.chunkSize = Math.max(1, spec.dynBatchSize());
    this.rowsPerTablet = new long[spec.tabletCount()];
    this.chunk = new ArrayList<>(Math.min(chunkSize, 1 << 16));
  }

  @Override
  public void write(InternalRow record) {
    int tablet = tabletOf(rowCount);
    rowsPerTablet[tablet]++;
    chunk.add(toYtRow(record, rowCount));
    rowCount++;
    if (chunk.size() >= chunkSize) {
      PushBatchShare.Share started = share();
      List<Row> full = chunk;
      chunk = new ArrayList<>(full.size());
      try {
        shares.pushChunk(started, full);
      } catch (BatchShareTooLargeException e) {
        throw tooManyRows(e.tablet(), e.rows(), e);
      } catch (BatchShareNotCommittedException e) {
        throw withTimeoutHint(e);
      }
    }
  }

  private int tabletOf(long rowNumber) {
    return OutputTablets.forRow(partitionId, rowNumber, spec.tabletCount());
  }

  /** The share, opened (with the session) at the first push. */
  private PushBatchShare.Share share() {
    if (share != null) {
      return share;
    }
    cluster = spec.cluster().connect();
    shares = new PushBatchShare(cluster.queueProducers(), cluster.transactions());
    PushBatchShare.OpenSession session =
        shares.open(target.producer(), spec.path(), target.queryId(), partitionId);
    session
        .lastPushed()
        .ifPresent(
            last ->
                LOG.debug(
                    "{} holds batch {} ({} rows) of query {}",
                    session.id(),
                    last.batchId(),
                    last.rowCount(),
                    last.queryId()));
    share =
        shares.start(
            session,
            epochId,
            target.maxRowsPerTablet(),
            target.sourceEnd(epochId),
            target.transactionTimeout());
    return share;
  }

  @Override
  public WriterCommitMessage commit() {
    if (share == null && chunk.isEmpty()) {
      return YtCommitMessage.producerShare(partitionId, epochId, rowsPerTablet, 0, 0, "empty");
    }
    PushBatchShare.Share started = share();
    List<Row> last = chunk;
    chunk = new ArrayList<>();
    BatchShareOutcome outcome;
    try {
      outcome = shares.finish(started, last);
    } catch (BatchShareTooLargeException e) {
      throw tooManyRows(e.tablet(), e.rows(), e);
    } catch (BatchShareNotCommittedException e) {
      throw withTimeoutHint(e);
    } finally {
      closeCluster();
    }
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
                  + " between attempts (a non-deterministic expression, or rows that moved to"
                  + " another task). Nothing pushed: the queue keeps the earlier attempt's rows",
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

  private Row toYtRow(InternalRow record, long rowNumber) {
    Map<String, Object> values = new LinkedHashMap<>();
    List<ColumnSpec> columns = spec.columns();
    for (int i = 0; i < columns.size(); i++) {
      ColumnSpec c = columns.get(i);
      Object raw = record.isNullAt(i) ? null : record.get(i, c.sparkType());
      c.writeInto(values, raw);
    }
    values.put("$tablet_index", (long) tabletOf(rowNumber));
    return Row.of(values);
  }

  @Override
  public void abort() {
    chunk = new ArrayList<>();
    if (shares != null) {
      shares.abort(share);
    }
    closeCluster();
  }

  @Override
  public void close() {
    chunk = new ArrayList<>();
    if (shares != null) {
      // Spark closes a writer it neither committed nor aborted only when the task died anyway.
      shares.abort(share);
    }
    closeCluster();
  }

  private void closeCluster() {
    if (cluster != null) {
      cluster.close();
      cluster = null;
    }
  }
}
