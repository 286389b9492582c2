package io.ytstream.spark.sink;

import io.ytstream.application.CommitTransactionalBatch;
import io.ytstream.application.CommitTransactionalSink;
import io.ytstream.application.Interruptions;
import io.ytstream.application.OutputTarget;
import io.ytstream.application.TransactionLease;
import io.ytstream.application.WriterReport;
import io.ytstream.application.checkpoint.QueryCheckpoint;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.checkpoint.HadoopCheckpointFiles;
import io.ytstream.spark.config.YtSettings;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.connector.write.streaming.StreamingDataWriterFactory;
import org.apache.spark.sql.connector.write.streaming.StreamingWrite;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver side of the transactional sink. Spark runs one batch at a time on the driver: it asks
 * for the writer factory, runs the tasks, then calls {@link #commit} or {@link #abort}.
 *
 * <p>The factory call opens the batch's tablet transaction and owns its lease (a {@link
 * TransactionLease} renewed by a {@link LeasePinger}; executors attach and never ping), puts its id
 * into the factory that ships to executors and tags the write job with it ({@link
 * BatchWriteJobListener}). {@link #commit} first waits for the listener's word that no task attempt
 * may have left rows in the transaction behind a retry (a lost executor), then hands the
 * transaction and the writers' reports to the application's {@link CommitTransactionalSink}; {@link
 * #abort} aborts it.
 */
final class TransactionalStreamingWrite implements StreamingWrite {

  private static final Logger LOG = LoggerFactory.getLogger(TransactionalStreamingWrite.class);

  private final YtWriteSpec spec;
  private final YtSettings settings;
  private final YtCluster cluster;
  private final BatchWriteJobListener writeJobs;
  private final CommitTransactionalSink committer;

  private TabletTransaction open;
  private final LeasePinger pinger;

  TransactionalStreamingWrite(
      YtWriteSpec spec,
      YtSettings settings,
      Path checkpointRoot,
      Configuration hadoopConf,
      BatchWriteJobListener writeJobs) {
    this.spec = spec;
    this.settings = settings;
    this.writeJobs = writeJobs;
    this.pinger = new LeasePinger(settings.transactionTimeout(), "ytstream-transaction-pinger");
    this.cluster = spec.cluster().connect();
    this.committer =
        new CommitTransactionalSink(
            cluster.consumerOffsets(),
            cluster.transactions(),
            settings.transactionTimeout(),
            new QueryCheckpoint(new HadoopCheckpointFiles(checkpointRoot, hadoopConf)),
            new OutputTarget(spec.path(), spec.sorted(), spec.tabletCount()),
            settings.maxRowsPerTabletPerTransaction());
  }

  @Override
  public synchronized StreamingDataWriterFactory createStreamingWriterFactory(
      PhysicalWriteInfo info) {
    finishOpen("a new batch started");
    open = committer.openBatch();
    pinger.start(open.id(), new TransactionLease(open)::renew);
    writeJobs.tagJobsOf(open.id().value());
    LOG.debug("batch transaction {} opened", open.id());
    return YtDataWriterFactory.inTransaction(
        spec, open.id().value(), settings.maxRowsPerTabletPerTransaction());
  }

  @Override
  public synchronized void commit(long epochId, WriterCommitMessage[] messages) {
    TabletTransaction tx = open;
    if (tx == null) {
      throw new IllegalStateException("batch " + epochId + " has no open transaction");
    }
    List<WriterReport> reports = new ArrayList<>(messages.length);
    for (WriterCommitMessage m : messages) {
      if (m != null) {
        reports.add(((YtCommitMessage) m).toReport());
      }
    }
    try {
      awaitCleanWriteJob(epochId, tx);
      switch (committer.commit(epochId, tx, reports)) {
        case ALREADY_APPLIED -> LOG.info("batch {} was applied by an earlier attempt", epochId);
        case COMMITTED_WITHOUT_SOURCE ->
            LOG.warn(
                "batch {} has no yt source ranges: its output was committed without a consumer"
                    + " advance",
                epochId);
        case COMMITTED -> {}
      }
    } catch (RuntimeException e) {
      CommitTransactionalBatch.abortQuietly(tx);
      throw e;
    } finally {
      pinger.stop();
      writeJobs.forget(tx.id().value());
      open = null;
    }
  }

  /** Fails when a task attempt of the write job may have left rows behind a retry's. */
  private void awaitCleanWriteJob(long epochId, TabletTransaction tx) {
    try {
      writeJobs.awaitCleanEnd(tx.id().value(), epochId, BatchWriteJobListener.DEFAULT_WAIT);
    } catch (InterruptedException e) {
      throw Interruptions.stopped("batch " + epochId + " was not committed", e);
    }
  }

  @Override
  public synchronized void abort(long epochId, WriterCommitMessage[] messages) {
    finishOpen("batch " + epochId + " aborted");
  }

  private void finishOpen(String why) {
    pinger.stop();
    if (open != null) {
      LOG.debug("aborting batch transaction {}: {}", open.id(), why);
      CommitTransactionalBatch.abortQuietly(open);
      writeJobs.forget(open.id().value());
      open = null;
    }
  }

  @Override
  public String toString() {
    return "TransactionalStreamingWrite[" + spec.path() + "]";
  }
}
