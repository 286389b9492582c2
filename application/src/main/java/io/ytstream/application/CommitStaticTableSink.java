package io.ytstream.application;

import io.ytstream.application.checkpoint.BatchEnd;
import io.ytstream.application.checkpoint.QueryCheckpoint;
import io.ytstream.core.commit.CommitOutcome;
import io.ytstream.core.delivery.StaticTableBatchDecision;
import io.ytstream.core.error.CommitOutcomeUnknownException;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.MasterTransaction;
import io.ytstream.ports.StaticTableAppends;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The driver's side of a batch streamed into a static table, exactly once. {@link #openBatch} is
 * the sink's {@code createStreamingWriterFactory}: it starts the batch's master transaction (the
 * caller renews it, {@link MasterTransactionLease}) and reads the table's record of the query's
 * batches ({@link StaticTableBatchRecord}) to tell the tasks whether to write at all. The tasks
 * append in transactions nested in it ({@link StaticTableTaskWriter}). {@link #commit} is the
 * sink's {@code commit(epochId, messages)}: it reads the record again in the transaction, records
 * the batch and its end offsets there, and commits, so the rows and the record land together; an
 * unknown outcome is resolved by reading the record. A batch the table already records is not
 * written again: its transaction is aborted and the commit reports success.
 *
 * <p>The consumer is not this sink's: it follows as in at-least-once mode, moved by the source's
 * commit only to an end whose {@code commits/N} exists, so never ahead of the table.
 */
@DrivingUseCase
public final class CommitStaticTableSink {

  /** What a commit did. */
  public enum Result {
    COMMITTED,
    /** The table already recorded the batch: nothing was written again. */
    ALREADY_APPLIED
  }

  /** One open batch: its id and end (from {@code offsets/N}), its transaction, the decision. */
  public record OpenBatch(BatchEnd end, MasterTransaction transaction, boolean writes) {
    public long batchId() {
      return end.batchId();
    }
  }

  private static final String ATTR = StaticTableBatchRecord.ATTRIBUTE;

  private final StaticTableAppends appends;
  private final Duration transactionTimeout;
  private final QueryCheckpoint checkpoint;
  private final YPath table;
  private final String queryId;

  /**
   * @param queryId the query's id, kept in the checkpoint (Spark's {@code metadata}): the key of
   *     its entry in the table's record
   */
  public CommitStaticTableSink(
      StaticTableAppends appends,
      Duration transactionTimeout,
      QueryCheckpoint checkpoint,
      YPath table,
      String queryId) {
    this.appends = Objects.requireNonNull(appends, "appends");
    this.transactionTimeout = Objects.requireNonNull(transactionTimeout, "transactionTimeout");
    this.checkpoint = Objects.requireNonNull(checkpoint, "checkpoint");
    this.table = Objects.requireNonNull(table, "table");
    this.queryId = Objects.requireNonNull(queryId, "queryId");
  }

  /**
   * Starts the transaction of the batch about to run (the newest of the offset log: Spark writes
   * {@code offsets/N} before it asks for the writers) and decides whether its rows are written.
   */
  public OpenBatch openBatch() {
    BatchEnd end =
        checkpoint
            .latestBatchEnd()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "the checkpoint "
                            + checkpoint.location()
                            + " has no offset log entry for the batch about to be written to "
                            + table
                            + ": the checkpoint is damaged"));
    StaticTableBatchDecision decision =
        StaticTableBatchDecision.of(recorded(appends.attribute(table, ATTR)), end.batchId());
    return new OpenBatch(end, appends.start(transactionTimeout), decision.writes());
  }

  private OptionalLong recorded(Optional<Object> attribute) {
    return StaticTableBatchRecord.of(attribute, table.value()).lastBatch(queryId, table.value());
  }

  /**
   * Returns normally when the batch's rows and its record are in the table exactly once; otherwise
   * the transaction is aborted (when the outcome is known) and the error thrown: nothing of the
   * batch is in the table, and a restart runs it again.
   */
  public Result commit(long epochId, OpenBatch batch, List<StaticTableTaskReport> reports) {
    MasterTransaction tx = batch.transaction();
    try {
      check(epochId, batch, reports);
      if (!batch.writes()) {
        abortQuietly(tx);
        return Result.ALREADY_APPLIED;
      }
      StaticTableBatchRecord record =
          StaticTableBatchRecord.of(tx.attribute(table, ATTR), table.value());
      if (!StaticTableBatchDecision.of(record.lastBatch(queryId, table.value()), epochId)
          .writes()) {
        // Another attempt committed the batch after this one was opened.
        abortQuietly(tx);
        return Result.ALREADY_APPLIED;
      }
      tx.setAttribute(table, ATTR, record.with(queryId, epochId, batch.end().offsets()));
    } catch (RuntimeException e) {
      abortQuietly(tx);
      throw e;
    }
    try {
      tx.commit();
      return Result.COMMITTED;
    } catch (CommitOutcomeUnknownException e) {
      return resolve(epochId, e);
    } catch (RuntimeException e) {
      if (Interruptions.isInterruption(e)) {
        // The query is stopping: Spark must see the stop; the restart reads the record, and the
        // transaction expires if the commit did not land.
        throw e;
      }
      abortQuietly(tx);
      throw new BatchNotCommittedException(
          CommitOutcome.FAILED,
          "batch "
              + epochId
              + " was not committed into "
              + table
              + ": nothing of it is in the table, and a restarted query writes it again",
          e);
    }
  }

  /** A commit without an answer: the record, read outside any transaction, says what happened. */
  private Result resolve(long epochId, CommitOutcomeUnknownException unknown) {
    OptionalLong recorded;
    try {
      recorded = recorded(appends.attribute(table, ATTR));
    } catch (RuntimeException e) {
      e.addSuppressed(unknown);
      if (Interruptions.isInterruption(e)) {
        throw e; // the query is stopping: the restart reads the record
      }
      throw new BatchNotCommittedException(
          CommitOutcome.UNKNOWN,
          "the commit of batch "
              + epochId
              + " into "
              + table
              + " got no answer and its record could not be read: a restarted query reads it"
              + " and writes the batch only if it is not there",
          e);
    }
    if (recorded.isPresent() && recorded.getAsLong() >= epochId) {
      return Result.COMMITTED;
    }
    throw new BatchNotCommittedException(
        CommitOutcome.UNKNOWN,
        "the commit of batch "
            + epochId
            + " into "
            + table
            + " got no answer and the table does not record it: a restarted query reads the"
            + " record again and writes the batch only if it is not there",
        unknown);
  }

  private void check(long epochId, OpenBatch batch, List<StaticTableTaskReport> reports) {
    if (batch.batchId() != epochId) {
      throw new IllegalStateException(
          "batch "
              + epochId
              + " is committing into "
              + table
              + ", but its transaction was opened for batch "
              + batch.batchId()
              + " (the newest of the checkpoint's offset log then): refusing to commit");
    }
    for (StaticTableTaskReport r : reports) {
      if (!batch.transaction().id().value().equals(r.transactionId()) || r.epochId() != epochId) {
        throw new IllegalStateException(
            "a writer of batch "
                + epochId
                + " reports transaction "
                + r.transactionId()
                + " of epoch "
                + r.epochId()
                + ", but the batch transaction is "
                + batch.transaction().id()
                + ": refusing to commit");
      }
    }
  }

  /**
   * Aborts the batch (no tasks ran, Spark gave up on them, or the write job is not clean); a failed
   * abort leaves the transaction to its lease, and nothing of it lands either way.
   */
  public static void abort(OpenBatch batch) {
    abortQuietly(batch.transaction());
  }

  private static void abortQuietly(MasterTransaction tx) {
    try {
      tx.abort();
    } catch (RuntimeException e) {
      // The lease runs out; nothing of the transaction lands.
    }
  }
}
