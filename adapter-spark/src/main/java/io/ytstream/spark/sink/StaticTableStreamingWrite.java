package io.ytstream.spark.sink;

import io.ytstream.application.CommitStaticTableSink;
import io.ytstream.application.Interruptions;
import io.ytstream.application.MasterTransactionLease;
import io.ytstream.application.StaticTableTaskReport;
import io.ytstream.application.checkpoint.QueryCheckpoint;
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
 * The driver side of a stream into a static table, exactly once. The factory call is {@link
 * CommitStaticTableSink#openBatch} (the batch's master transaction, renewed by a {@link
 * LeasePinger}; whether the table already records the batch); the write job is tagged with the
 * transaction's id ({@link BatchWriteJobListener}), and {@link #commit} waits for the listener's
 * word that no task attempt may have committed its rows behind a retry before {@link
 * CommitStaticTableSink#commit} records the batch and commits. {@link #abort} aborts.
 */
final class StaticTableStreamingWrite implements StreamingWrite {

  private static final Logger LOG = LoggerFactory.getLogger(StaticTableStreamingWrite.class);

  private final YtWriteSpec spec;
  private final YtSettings settings;
  private final YtCluster cluster;
  private final BatchWriteJobListener writeJobs;
  private final CommitStaticTableSink sink;
  private final LeasePinger pinger;
  private CommitStaticTableSink.OpenBatch open;

  StaticTableStreamingWrite(
      YtWriteSpec spec,
      YtSettings settings,
      Path checkpointRoot,
      Configuration hadoopConf,
      String queryId,
      BatchWriteJobListener writeJobs) {
    this.spec = spec;
    this.settings = settings;
    this.writeJobs = writeJobs;
    this.pinger =
        new LeasePinger(settings.transactionTimeout(), "ytstream-master-transaction-pinger");
    this.cluster = spec.cluster().connect();
    this.sink =
        new CommitStaticTableSink(
            cluster.staticTableAppends(),
            settings.transactionTimeout(),
            new QueryCheckpoint(new HadoopCheckpointFiles(checkpointRoot, hadoopConf)),
            spec.path(),
            queryId);
  }

  @Override
  public synchronized StreamingDataWriterFactory createStreamingWriterFactory(
      PhysicalWriteInfo info) {
    finishOpen("a new batch started");
    open = sink.openBatch();
    pinger.start(open.transaction().id(), new MasterTransactionLease(open.transaction())::renew);
    writeJobs.tagJobsOf(open.transaction().id().value());
    if (!open.writes()) {
      LOG.info(
          "{} already records batch {}: its rows are not written again",
          spec.path(),
          open.batchId());
    }
    return new StaticTableWriterFactory(
        spec, open.transaction().id(), open.writes(), settings.transactionTimeout());
  }

  @Override
  public synchronized void commit(long epochId, WriterCommitMessage[] messages) {
    CommitStaticTableSink.OpenBatch batch = open;
    if (batch == null) {
      throw new IllegalStateException("batch " + epochId + " has no open transaction");
    }
    List<StaticTableTaskReport> reports = new ArrayList<>(messages.length);
    for (WriterCommitMessage m : messages) {
      if (m != null) {
        reports.add(((StaticTableCommitMessage) m).toReport());
      }
    }
    String id = batch.transaction().id().value();
    try {
      try {
        writeJobs.awaitCleanEnd(id, epochId, BatchWriteJobListener.DEFAULT_WAIT);
      } catch (InterruptedException e) {
        throw Interruptions.stopped("batch " + epochId + " was not committed", e);
      } catch (RuntimeException e) {
        CommitStaticTableSink.abort(batch);
        throw e;
      }
      if (sink.commit(epochId, batch, reports) == CommitStaticTableSink.Result.ALREADY_APPLIED) {
        LOG.info("batch {} was already in {}", epochId, spec.path());
      }
    } finally {
      pinger.stop();
      writeJobs.forget(id);
      open = null;
    }
  }

  @Override
  public synchronized void abort(long epochId, WriterCommitMessage[] messages) {
    finishOpen("batch " + epochId + " aborted");
  }

  private void finishOpen(String why) {
    pinger.stop();
    if (open != null) {
      LOG.debug("aborting static table batch transaction {}: {}", open.transaction().id(), why);
      CommitStaticTableSink.abort(open);
      writeJobs.forget(open.transaction().id().value());
      open = null;
    }
  }

  @Override
  public String toString() {
    return "StaticTableStreamingWrite[" + spec.path() + "]";
  }
}
