package io.ytstream.application;

import io.ytstream.core.commit.CommitOutcome;
import io.ytstream.core.delivery.RecoveryVerdict;
import io.ytstream.core.delivery.TransactionalBatchCommit;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.ports.ConsumerOffsets;
import io.ytstream.ports.TabletTransaction;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The driver's end of a transactional batch, once its tasks have written their rows into the batch
 * transaction, driving core's {@link TransactionalBatchCommit}: the consumer rows read inside the
 * transaction decide (core's recovery table) whether to advance every partition with {@code
 * old_offset = lower} and commit, to abort because an earlier attempt already applied the batch, or
 * to fail because another writer moved the consumer. An unknown commit outcome is resolved by
 * re-reading the consumer rows outside the transaction.
 */
public final class CommitTransactionalBatch {

  /** How a batch ended when it did not throw. */
  public enum Result {
    /** This transaction committed: the rows and the consumer advance are applied. */
    COMMITTED,
    /** An earlier attempt applied the batch: this transaction is aborted, nothing is written. */
    ALREADY_APPLIED,
    /** The batch read no queue rows: the output alone is committed, the consumer stays. */
    NO_SOURCE_ROWS
  }

  private final ConsumerOffsets offsets;

  public CommitTransactionalBatch(ConsumerOffsets offsets) {
    this.offsets = Objects.requireNonNull(offsets, "offsets");
  }

  /**
   * Commits batch {@code batchId}, which read {@code ranges} through the consumers of {@code
   * consumers} (by queue), in {@code tx}. Returns normally when the batch's rows and offsets are in
   * the output exactly once.
   *
   * @throws BatchNotCommittedException when the batch did not commit; {@code tx} is aborted (on
   *     every failure but the query stopping, the caller need not abort it again)
   */
  public Result commit(
      long batchId,
      TabletTransaction tx,
      List<OffsetRange> ranges,
      Map<QueueId, ConsumerId> consumers) {
    if (ranges.isEmpty()) {
      try {
        tx.commit();
      } catch (RuntimeException e) {
        throw ended(tx, e);
      }
      return Result.NO_SOURCE_ROWS;
    }
    TreeMap<QueueId, ConsumerId> byQueue = new TreeMap<>(consumers);
    TransactionalBatchCommit state = new TransactionalBatchCommit(batchId, ranges);
    state.transactionStarted();
    state.rowsWritten();
    StreamOffsets snapshot = StreamOffsets.empty();
    try {
      for (Map.Entry<QueueId, ConsumerId> e : byQueue.entrySet()) {
        snapshot = snapshot.overlay(tx.readConsumer(e.getValue(), e.getKey()));
      }
    } catch (RuntimeException e) {
      throw ended(tx, e);
    }
    RecoveryVerdict verdict = state.consumerRead(snapshot);
    switch (verdict.decision()) {
      case ALREADY_APPLIED -> {
        abortQuietly(tx);
        return Result.ALREADY_APPLIED;
      }
      case FENCED -> {
        abortQuietly(tx);
        throw new BatchNotCommittedException(
            CommitOutcome.FENCED,
            "batch " + batchId + " is fenced, nothing was written: " + verdict.reason(),
            null);
      }
      case COMMIT -> {
        // advanced and committed below
      }
    }
    RuntimeException error = null;
    try {
      for (OffsetRange range : ranges) {
        ConsumerId consumer = byQueue.get(range.partition().queue());
        tx.advanceConsumer(
            consumer, range.partition(), OptionalLong.of(range.lower()), range.upper());
      }
      tx.commit();
    } catch (RuntimeException e) {
      if (Interruptions.isInterruption(e)) {
        // The query is stopping: whether the commit landed is resolved when it restarts.
        throw e;
      }
      error = e;
    }
    CommitOutcome outcome = state.commitFinished(error);
    switch (outcome) {
      case COMMITTED -> {
        return Result.COMMITTED;
      }
      case UNKNOWN -> {
        // A commit that did not land leaves the transaction open with its rows: end it first, so
        // that the consumer read below is the outcome for good (an abort after the commit landed
        // finds nothing to undo).
        abortQuietly(tx);
        StreamOffsets now;
        try {
          now = StreamOffsets.empty();
          for (Map.Entry<QueueId, ConsumerId> e : byQueue.entrySet()) {
            now = now.overlay(offsets.read(e.getValue(), e.getKey()));
          }
        } catch (RuntimeException readError) {
          if (Interruptions.isInterruption(readError)) {
            // The query is stopping: the restart resolves the outcome; Spark must see the stop.
            readError.addSuppressed(error);
            throw readError;
          }
          error.addSuppressed(readError);
          throw new BatchNotCommittedException(
              CommitOutcome.RETRY_LATER,
              "batch "
                  + batchId
                  + ": the commit outcome was unknown and the consumer could not be read to"
                  + " resolve it; the batch runs again when the query restarts",
              error);
        }
        RecoveryVerdict resolved = state.outcomeResolved(now);
        if (state.state() == TransactionalBatchCommit.State.COMMITTED) {
          return Result.COMMITTED;
        }
        throw new BatchNotCommittedException(
            state.state() == TransactionalBatchCommit.State.FENCED
                ? CommitOutcome.FENCED
                : CommitOutcome.RETRY_LATER,
            "batch "
                + batchId
                + ": the commit outcome was unknown and it did not land ("
                + resolved.reason()
                + "); the batch runs again when the query restarts",
            error);
      }
      case FAILED -> {
        abortQuietly(tx);
        throw new BatchNotCommittedException(
            CommitOutcome.FAILED, "batch " + batchId + " cannot commit: " + state.reason(), error);
      }
      case FENCED -> {
        abortQuietly(tx);
        throw new BatchNotCommittedException(
            CommitOutcome.FENCED,
            "batch " + batchId + " is fenced, nothing was written: " + state.reason(),
            error);
      }
      case RETRY_LATER -> {
        abortQuietly(tx);
        throw new BatchNotCommittedException(
            CommitOutcome.RETRY_LATER,
            "batch "
                + batchId
                + "'s transaction did not commit ("
                + state.reason()
                + "); nothing was written and the consumer did not move. The batch runs again"
                + " with a new transaction when the query restarts",
            error);
      }
    }
    throw new AssertionError(outcome);
  }

  /**
   * {@code error} leaves {@code tx} aborted, unless it is the query stopping: then the restart
   * resolves the outcome, and the transaction expires if nothing commits it.
   */
  private static RuntimeException ended(TabletTransaction tx, RuntimeException error) {
    if (!Interruptions.isInterruption(error)) {
      abortQuietly(tx);
    }
    return error;
  }

  /** Aborts, ignoring a failure: an expired or already aborted transaction has nothing to undo. */
  public static void abortQuietly(TabletTransaction tx) {
    try {
      tx.abort();
    } catch (RuntimeException e) {
      // nothing to undo
    }
  }
}
