package io.ytstream.simulation;

import io.ytstream.application.BatchNotCommittedException;
import io.ytstream.application.BatchTooLargeException;
import io.ytstream.application.CommitStaticTableSink;
import io.ytstream.application.CommitTransactionalBatch;
import io.ytstream.application.CommitTransactionalSink;
import io.ytstream.application.ConsumerFencedException;
import io.ytstream.application.MasterTransactionLease;
import io.ytstream.application.OutputTarget;
import io.ytstream.application.StaticTableTaskReport;
import io.ytstream.application.TransactionLease;
import io.ytstream.application.WriterReport;
import io.ytstream.application.checkpoint.BatchEnd;
import io.ytstream.application.checkpoint.QueryCheckpoint;
import io.ytstream.core.commit.CommitOutcome;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The sink's driver side, Spark's {@code StreamingWrite} as the Spark adapter's {@code
 * TransactionalStreamingWrite} and {@code ProducerStreamingWrite} implement it: the writer factory
 * opens the batch transaction (transactional) or reads the batch's source end from the newest
 * {@code offsets/N} for the sessions' user_meta (producer); {@code commit(epochId, messages)} asks
 * the batch's {@link io.ytstream.application.BatchWriteJob} whether a task attempt may have left
 * rows behind a retry's (then it aborts the transaction and the query fails), and runs {@link
 * CommitTransactionalSink} on the writers' reports. Static table mode is {@code
 * StaticTableStreamingWrite}'s: the factory is {@link CommitStaticTableSink#openBatch}, the commit
 * the write job's word and then {@link CommitStaticTableSink#commit}. In the other modes the
 * writers have flushed their own chunks and the commit does nothing.
 */
final class SimStreamingWrite {

  /** The batch transaction's timeout (the transactional sink's). */
  static final Duration TRANSACTION_TIMEOUT = Duration.ofSeconds(30);

  private final SimContext ctx;
  private final int driverId;
  private final SimMode mode;
  private final QueryCheckpoint checkpoint;
  private final long maxRowsPerTablet;
  private final CommitTransactionalSink sink;
  private final CommitStaticTableSink staticSink;

  SimStreamingWrite(
      SimContext ctx, int driverId, QueryCheckpoint checkpoint, long maxRowsPerTablet) {
    this.ctx = ctx;
    this.driverId = driverId;
    this.mode = ctx.workload.mode();
    this.checkpoint = checkpoint;
    this.maxRowsPerTablet = maxRowsPerTablet;
    this.sink =
        new CommitTransactionalSink(
            ctx.io,
            ctx.io,
            TRANSACTION_TIMEOUT,
            checkpoint,
            new OutputTarget(Workload.OUTPUT, false, ctx.workload.outputTablets()),
            maxRowsPerTablet);
    this.staticSink =
        new CommitStaticTableSink(
            ctx.io.staticTables(),
            TRANSACTION_TIMEOUT,
            checkpoint,
            Workload.OUTPUT,
            Driver.QUERY_ID);
  }

  /** {@code createStreamingWriterFactory}. */
  void createWriterFactory(BatchInFlight batch) {
    if (mode == SimMode.TRANSACTIONAL) {
      batch.tx = sink.openBatch();
      batch.pinger =
          new SimTransactionPinger(
              batch.tx.id(),
              new TransactionLease(batch.tx)::renew,
              TRANSACTION_TIMEOUT,
              ctx.cluster.ports().time().nowMillis());
    } else if (mode == SimMode.PRODUCER) {
      batch.sourceEnd = checkpoint.latestBatchEnd().map(BatchEnd::offsets);
    } else if (mode == SimMode.STATIC_TABLE) {
      batch.staticBatch = staticSink.openBatch();
      batch.pinger =
          new SimTransactionPinger(
              batch.staticBatch.transaction().id(),
              new MasterTransactionLease(batch.staticBatch.transaction())::renew,
              TRANSACTION_TIMEOUT,
              ctx.cluster.ports().time().nowMillis());
    }
  }

  /**
   * {@code commit(epochId, messages)}: a batch that does not commit fails the query, as in Spark,
   * and runs again after the restart.
   */
  void commit(BatchInFlight batch, boolean zombie) {
    if (mode == SimMode.STATIC_TABLE) {
      commitStatic(batch);
      return;
    }
    if (mode != SimMode.TRANSACTIONAL) {
      return;
    }
    List<WriterReport> reports = new ArrayList<>();
    String notKept = null;
    for (WriterReport r : batch.reports) {
      if (r != null) {
        reports.add(r);
        notKept = notKept == null ? r.notKept() : notKept;
      }
    }
    long[] before = ctx.verifier.consumer();
    try {
      // TransactionalStreamingWrite waits for the job listener's word first.
      batch.writeJob.checkCommittable(batch.id, batch.tx.id().value());
    } catch (IllegalStateException tainted) {
      CommitTransactionalBatch.abortQuietly(batch.tx);
      ctx.trace("d" + driverId + " batch " + batch.id + " tainted: " + tainted.getMessage());
      throw new QueryFailure(tainted.getMessage(), false, tainted);
    }
    try {
      CommitTransactionalSink.Result result = sink.commit(batch.id, batch.tx, reports);
      if (ctx.tracing()) {
        ctx.trace("d" + driverId + " batch " + batch.id + " " + result);
      }
      if (!zombie && notKept != null) {
        ctx.verifier.onRowsNotKept(batch.id, notKept, batch.start, batch.end, before, null);
      } else if (!zombie) {
        ctx.verifier.onSinkCommitted(
            batch.id, batch.start, batch.end, before, batch.tx.id(), result);
      }
    } catch (RuntimeException e) {
      // A zombie's sink ends its transaction too: a fenced batch must not hold row locks. A stopped
      // query's cannot: its thread is interrupted, so no abort request leaves it.
      if (!(e instanceof SimulatedCrash) && !Thread.currentThread().isInterrupted()) {
        ctx.verifier.onFailedWrite("batch " + batch.id + "'s sink commit", List.of(batch.tx.id()));
      }
      if (e.getCause() instanceof BatchNotCommittedException b
          && b.outcome() == CommitOutcome.FENCED) {
        ctx.verifier.onSinkFenced(batch.id, batch.start, batch.end, e);
      }
      if (!zombie && !(e instanceof BatchTooLargeException) && refusedAsTooManyRows(e)) {
        ctx.verifier.onClusterRefusalUnexplained(batch.id, e);
      }
      if (!zombie && e instanceof BatchTooLargeException) {
        long[] perTablet = new long[ctx.workload.outputTablets()];
        long worst = 0;
        for (WriterReport r : reports) {
          for (int t = 0; t < perTablet.length; t++) {
            perTablet[t] += r.rowsPerTablet()[t];
            worst = Math.max(worst, perTablet[t]);
          }
        }
        // The sink checks the rows per tablet first, then whether every task kept its rows.
        if (worst <= maxRowsPerTablet && notKept != null) {
          ctx.verifier.onRowsNotKept(
              batch.id, notKept, batch.start, batch.end, before, e.getMessage());
        } else if (worst <= maxRowsPerTablet && worst > ctx.rowLimit && ctx.rowLimit > 0) {
          ctx.verifier.onClusterRefusedBatch(batch.id, worst, e.getMessage());
        } else {
          ctx.verifier.onBatchRefused(
              batch.id, perTablet, maxRowsPerTablet, batch.start, batch.end, e.getMessage());
        }
      }
      if (e instanceof BatchNotCommittedException || e instanceof ConsumerFencedException) {
        throw new QueryFailure(e.getMessage(), false, e);
      }
      throw e;
    }
  }

  /**
   * Static table mode's {@code commit(epochId, messages)}: the write job's word first (a task
   * attempt that may have committed its rows behind a retry's aborts the batch), then {@link
   * CommitStaticTableSink#commit}. A batch that does not commit fails the query.
   */
  private void commitStatic(BatchInFlight batch) {
    CommitStaticTableSink.OpenBatch open = batch.staticBatch;
    List<StaticTableTaskReport> reports = new ArrayList<>();
    for (StaticTableTaskReport r : batch.staticReports) {
      if (r != null) {
        reports.add(r);
      }
    }
    try {
      batch.writeJob.checkCommittable(batch.id, open.transaction().id().value());
    } catch (IllegalStateException tainted) {
      CommitStaticTableSink.abort(open);
      ctx.trace("d" + driverId + " batch " + batch.id + " tainted: " + tainted.getMessage());
      throw new QueryFailure(tainted.getMessage(), false, tainted);
    }
    try {
      CommitStaticTableSink.Result result = staticSink.commit(batch.id, open, reports);
      ctx.trace("d" + driverId + " batch " + batch.id + " " + result);
    } catch (BatchNotCommittedException e) {
      throw new QueryFailure(e.getMessage(), false, e);
    }
  }

  /** Whether the cluster's "too many rows in tablet" refusal is in {@code e}'s causes. */
  private static boolean refusedAsTooManyRows(Throwable e) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof YtException yt && yt.hasCode(YtErrorCode.TOO_MANY_ROWS_IN_TRANSACTION)) {
        return true;
      }
    }
    return false;
  }
}
