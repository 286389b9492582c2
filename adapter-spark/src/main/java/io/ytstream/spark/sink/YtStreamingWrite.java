package io.ytstream.spark.sink;

import io.ytstream.application.Interruptions;
import io.ytstream.application.TransactionLease;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.config.YtSettings;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.connector.write.streaming.StreamingDataWriterFactory;
import org.apache.spark.sql.connector.write.streaming.StreamingWrite;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver side of the streaming sink. Spark runs one batch at a time on the driver: it asks for
 * the writer factory, runs the tasks, then calls {@link #commit} or {@link #abort}.
 *
 * <p>In transactional mode the factory call opens the batch's tablet transaction and owns its lease
 * (a {@link TransactionLease} renewed by a pinger thread here; executors attach and never ping),
 * puts its id into the factory that ships to executors and tags the write job with it ({@link
 * BatchWriteJobListener}); {@link #commit} first waits for the listener's word that no task attempt
 * may have left rows in the transaction behind a retry (a lost executor), then hands the
 * transaction to {@link TransactionalSinkCommit}; {@link #abort} aborts it. Outside transactional
 * mode writers flush their own chunks and the consumer moves in the source's commit.
 *
 * <p>In producer mode ({@code producer_path}) each task pushes its share through a producer session
 * of its own ({@link YtProducerDataWriter}); the factory carries the source's end offsets of the
 * batch, read from the latest {@code offsets/N} of the checkpoint (Spark writes it before the batch
 * runs and does not pass the batch id to the factory), for the sessions' user_meta. {@link #commit}
 * only reports what the pushes did; the consumer moves in the source's commit after {@code
 * commits/N}, as in at-least-once.
 */
final class YtStreamingWrite implements StreamingWrite {

  private static final Logger LOG = LoggerFactory.getLogger(YtStreamingWrite.class);

  private final YtWriteSpec spec;
  private final YtSettings settings;
  private final Path checkpointRoot;
  private final Configuration hadoopConf;
  private final YtCluster cluster;
  private final BatchWriteJobListener writeJobs;
  private final ProducerTarget producer;
  private final Path producerCheckpoint;

  private TabletTransaction open;
  private ScheduledExecutorService pinger;
  private ScheduledFuture<?> pinging;

  /** {@code checkpointRoot} and {@code writeJobs} are null outside transactional mode. */
  YtStreamingWrite(
      YtWriteSpec spec,
      YtSettings settings,
      Path checkpointRoot,
      Configuration hadoopConf,
      BatchWriteJobListener writeJobs) {
    this(spec, settings, checkpointRoot, hadoopConf, writeJobs, null, null);
  }

  private YtStreamingWrite(
      YtWriteSpec spec,
      YtSettings settings,
      Path checkpointRoot,
      Configuration hadoopConf,
      BatchWriteJobListener writeJobs,
      ProducerTarget producer,
      Path producerCheckpoint) {
    this.spec = spec;
    this.settings = settings;
    this.checkpointRoot = checkpointRoot;
    this.hadoopConf = hadoopConf;
    this.writeJobs = writeJobs;
    this.producer = producer;
    this.producerCheckpoint = producerCheckpoint;
    this.cluster = spec.cluster().connect();
  }

  /**
   * The sink in producer mode; {@code checkpoint} (null when the query's checkpoint location is not
   * an option of writeStream) is where the batches' source offsets are found.
   */
  static YtStreamingWrite throughProducer(
      YtWriteSpec spec,
      YtSettings settings,
      Configuration hadoopConf,
      ProducerTarget producer,
      Path checkpoint) {
    return new YtStreamingWrite(spec, settings, null, hadoopConf, null, producer, checkpoint);
  }

  boolean transactional() {
    return checkpointRoot != null;
  }

  @Override
  public synchronized StreamingDataWriterFactory createStreamingWriterFactory(
      PhysicalWriteInfo info) {
    if (producer != null) {
      return YtDataWriterFactory.throughProducer(spec, withLatestSourceEnd());
    }
    if (!transactional()) {
      return YtDataWriterFactory.outsideTransaction(spec);
    }
    finishOpen("a new batch started");
    open = cluster.transactions().start(settings.transactionTimeout());
    startPinging(open);
    writeJobs.tagJobsOf(open.id().value());
    LOG.debug("batch transaction {} opened", open.id());
    return YtDataWriterFactory.inTransaction(
        spec, open.id().value(), settings.maxRowsPerTabletPerTransaction());
  }

  /** The producer target, with the source's end of the batch about to run when it can be read. */
  private ProducerTarget withLatestSourceEnd() {
    if (producerCheckpoint == null) {
      return producer;
    }
    try {
      return LatestBatchEnd.read(producerCheckpoint, hadoopConf)
          .map(end -> producer.withSourceEnd(end.batchId(), end.offsets()))
          .orElse(producer);
    } catch (RuntimeException e) {
      // user_meta's offsets are a record for people and recovery tools, not needed to dedupe.
      LOG.debug(
          "the source offsets of the next batch are not readable under {}", producerCheckpoint, e);
      return producer;
    }
  }

  @Override
  public synchronized void commit(long epochId, WriterCommitMessage[] messages) {
    if (producer != null) {
      ProducerBatchReport.of(epochId, messages).log(spec.path().value());
      return;
    }
    if (!transactional()) {
      return;
    }
    TabletTransaction tx = open;
    if (tx == null) {
      throw new IllegalStateException("batch " + epochId + " has no open transaction");
    }
    YtCommitMessage[] ours = new YtCommitMessage[messages.length];
    for (int i = 0; i < messages.length; i++) {
      ours[i] = (YtCommitMessage) messages[i];
    }
    try {
      awaitCleanWriteJob(epochId, tx);
      new TransactionalSinkCommit(
              cluster, spec, checkpointRoot, hadoopConf, settings.maxRowsPerTabletPerTransaction())
          .commit(epochId, tx, ours);
    } catch (RuntimeException e) {
      TransactionalSinkCommit.abortQuietly(tx);
      throw e;
    } finally {
      stopPinging();
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
    stopPinging();
    if (open != null) {
      LOG.debug("aborting batch transaction {}: {}", open.id(), why);
      TransactionalSinkCommit.abortQuietly(open);
      writeJobs.forget(open.id().value());
      open = null;
    }
  }

  private void startPinging(TabletTransaction tx) {
    if (pinger == null) {
      pinger =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "ytstream-transaction-pinger");
                t.setDaemon(true);
                return t;
              });
    }
    TransactionLease lease = new TransactionLease(tx);
    long period = TransactionLease.renewalPeriod(settings.transactionTimeout()).toMillis();
    pinging =
        pinger.scheduleAtFixedRate(
            () -> {
              if (!lease.renew()) {
                LOG.debug("ping of {} failed; its next request will say why", tx.id());
              }
            },
            period,
            period,
            TimeUnit.MILLISECONDS);
  }

  private void stopPinging() {
    if (pinging != null) {
      pinging.cancel(false);
      pinging = null;
    }
  }

  @Override
  public String toString() {
    return "YtStreamingWrite["
        + spec.path()
        + (transactional() ? ", transactional" : "")
        + (producer != null ? ", through " + producer.producer() : "")
        + "]";
  }
}
