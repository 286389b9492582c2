package io.ytstream.spark.sink;

import io.ytstream.application.BatchShareOutcome;
import io.ytstream.application.BatchShareTooLargeException;
import io.ytstream.application.OutputTablets;
import io.ytstream.application.PushBatchShare;
import io.ytstream.core.delivery.BatchShareDecision;
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
 * task's own ({@link PushBatchShare}): rows are kept in the task (a {@link TransactionRowBuffer},
 * bounded by Spark's execution memory) until Spark lets the task commit, then pushed in one push
 * numbered from the batch id, so a replayed batch is skipped by the server.
 *
 * <p>The session is opened at the commit, after Spark's output commit coordinator authorized this
 * attempt: opening bumps the session's epoch, so an older attempt still running (a lost executor, a
 * second driver) is fenced from then on, and this attempt's push fails the same way if a newer one
 * opens it first. Row k of task p goes to tablet {@code (p + k) mod tablets}; a share with more
 * rows for one tablet than one push may write fails before anything is pushed.
 */
final class YtProducerDataWriter implements DataWriter<InternalRow> {

  private static final Logger LOG = LoggerFactory.getLogger(YtProducerDataWriter.class);

  private final YtWriteSpec spec;
  private final ProducerTarget target;
  private final int partitionId;
  private final long epochId;
  private final long[] rowsPerTablet;
  private final TransactionRowBuffer kept;
  private long rowCount;

  YtProducerDataWriter(YtWriteSpec spec, ProducerTarget target, int partitionId, long epochId) {
    this.spec = spec;
    this.target = target;
    this.partitionId = partitionId;
    this.epochId = epochId;
    this.rowsPerTablet = new long[spec.tabletCount()];
    this.kept = TransactionRowBuffer.forCurrentTask();
  }

  @Override
  public void write(InternalRow record) {
    int tablet = tabletOf(rowCount);
    rowsPerTablet[tablet]++;
    rowCount++;
    if (rowsPerTablet[tablet] > target.maxRowsPerTablet() && kept.stoppedBecause() == null) {
      // The push cannot succeed whatever comes next: stop keeping rows, count on for the message.
      kept.stop("too many rows for one tablet", rowCount - 1);
    }
    kept.add(record, rowCount - 1);
  }

  private int tabletOf(long rowNumber) {
    return OutputTablets.forRow(partitionId, rowNumber, spec.tabletCount());
  }

  @Override
  public WriterCommitMessage commit() {
    if (kept.stoppedBecause() != null) {
      throw stopped();
    }
    List<Row> rows = new ArrayList<>(kept.rows().size());
    List<InternalRow> buffered = kept.rows();
    for (int k = 0; k < buffered.size(); k++) {
      rows.add(toYtRow(buffered.get(k), k));
    }
    kept.release();
    if (rows.isEmpty()) {
      return YtCommitMessage.producerShare(partitionId, epochId, rowsPerTablet, 0, 0, "empty");
    }
    BatchShareOutcome outcome;
    try (YtCluster cluster = spec.cluster().connect()) {
      PushBatchShare shares = new PushBatchShare(cluster.queueProducers(), cluster.transactions());
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
      try {
        outcome =
            shares.push(
                session, epochId, rows, target.maxRowsPerTablet(), target.sourceEnd(epochId));
      } catch (BatchShareTooLargeException e) {
        throw tooManyRows(e.tablet(), e.rows(), e);
      }
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
                  + " run pushed them); the server skipped {}",
              epochId,
              partitionId,
              d.rowCount(),
              spec.path(),
              outcome.skippedRowCount());
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

  private IllegalArgumentException stopped() {
    int worst = 0;
    for (int t = 1; t < rowsPerTablet.length; t++) {
      if (rowsPerTablet[t] > rowsPerTablet[worst]) {
        worst = t;
      }
    }
    if (rowsPerTablet[worst] > target.maxRowsPerTablet()) {
      return tooManyRows(worst, rowsPerTablet[worst], null);
    }
    return new IllegalArgumentException(
        "option producer_path: task partition "
            + partitionId
            + " of batch "
            + epochId
            + " keeps its "
            + rowCount
            + " rows in memory until its one push, and "
            + kept.stoppedBecause()
            + ". Nothing of this task was pushed. Lower option max_rows_per_partition (or"
            + " max_rows_per_trigger) of the yt source, or give executors more memory"
            + " (spark.executor.memory)");
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
                + ", the rows one push may write into one tablet (a push is one tablet"
                + " transaction). Nothing of this task was pushed. Lower option"
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
    kept.release();
  }

  @Override
  public void close() {
    kept.release();
  }
}
