package io.ytstream.application;

import io.ytstream.core.commit.CommitErrorClassifier;
import io.ytstream.core.commit.CommitOutcome;
import io.ytstream.core.error.YtException;
import io.ytstream.ports.ProducerPush;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.PushResult;
import io.ytstream.ports.QueueProducerErrors;
import io.ytstream.ports.QueueProducers;
import io.ytstream.ports.Row;
import io.ytstream.ports.TransactionId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Pushes one task's rows through the task's producer session, numbered from a base the caller
 * derives from the batch, in one push (one tablet transaction: all rows or none), so a replayed
 * batch writes nothing twice: the server skips rows numbered at or below what the session holds.
 *
 * <p>Errors, classified once: an older epoch than the session's (3102) is a fenced writer, reported
 * as {@link ProducerFencedException} and never retried; a push that may not have landed (a lost
 * answer, a transport failure, throttling, a lock conflict) is sent again as it was, which is safe
 * because the server deduplicates it, and the repeat's {@code skipped_row_count} says whether the
 * earlier attempt landed; anything else (3101, 3103, the per-tablet row limit 1717) is thrown as it
 * came, since sending it again cannot succeed.
 *
 * <p>A push may also go into an open tablet transaction ({@link #pushInTransaction}), visible when
 * that commits. Sending it again there is safe too: within one transaction the server validates a
 * push through a session against the last number the transaction's previous push through it left,
 * so a copy of a push that had landed is skipped.
 *
 * <p>Not driven by an engine itself: {@link PushBatchShare} (the sink's shares) and {@link
 * PushRowsBySourcePosition} (the producer {@code ForeachWriter}) push through it.
 */
public final class PushThroughProducerSession {

  /** Attempts of one push while it fails in a way that sending it again may cure. */
  static final int ATTEMPTS = 3;

  private final QueueProducers producers;

  public PushThroughProducerSession(QueueProducers producers) {
    this.producers = Objects.requireNonNull(producers, "producers");
  }

  /**
   * Pushes {@code rows} as sequence numbers {@code base, base + 1, ...} with {@code epoch}, setting
   * the session's user_meta to {@code userMeta} when given (what the batch and its source offsets
   * were, for recovery).
   *
   * @throws ProducerFencedException when a newer writer has created the session
   */
  public ProducerPushOutcome push(
      ProducerSessionId session,
      long epoch,
      long baseSequenceNumber,
      List<Row> rows,
      Optional<Object> userMeta) {
    return push(session, epoch, baseSequenceNumber, rows, userMeta, Optional.empty());
  }

  /**
   * As {@link #push}, inside the open tablet transaction {@code transaction}: nothing of it is
   * visible before that commits.
   */
  public ProducerPushOutcome pushInTransaction(
      TransactionId transaction,
      ProducerSessionId session,
      long epoch,
      long baseSequenceNumber,
      List<Row> rows,
      Optional<Object> userMeta) {
    Objects.requireNonNull(transaction, "transaction");
    return push(session, epoch, baseSequenceNumber, rows, userMeta, Optional.of(transaction));
  }

  private ProducerPushOutcome push(
      ProducerSessionId session,
      long epoch,
      long baseSequenceNumber,
      List<Row> rows,
      Optional<Object> userMeta,
      Optional<TransactionId> transaction) {
    if (baseSequenceNumber < 0) {
      throw new IllegalArgumentException(
          "the base sequence number of a push must be >= 0, got "
              + baseSequenceNumber
              + " for "
              + session);
    }
    ProducerPush push =
        new ProducerPush(session, epoch, OptionalLong.of(baseSequenceNumber), rows, userMeta);
    RuntimeException last = null;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        PushResult result =
            transaction.isPresent()
                ? producers.push(push, transaction.get())
                : producers.push(push);
        return new ProducerPushOutcome(
            result.lastSequenceNumber(), push.rows().size(), result.skippedRowCount());
      } catch (RuntimeException e) {
        if (isZombie(e)) {
          throw new ProducerFencedException(
              "the push of "
                  + rows.size()
                  + " row(s) from sequence number "
                  + baseSequenceNumber
                  + " through "
                  + session
                  + " at epoch "
                  + epoch
                  + " is fenced: a newer writer has created the session since; this writer"
                  + " must stop",
              e);
        }
        CommitOutcome outcome = CommitErrorClassifier.classify(e);
        if (outcome == CommitOutcome.FAILED
            || outcome == CommitOutcome.FENCED
            || Interruptions.isInterruption(e)
            || hasProducerCode(e)) {
          throw e;
        }
        if (last != null) {
          e.addSuppressed(last);
        }
        last = e;
      }
    }
    throw last;
  }

  private static boolean isZombie(Throwable error) {
    return codeInChain(error, QueueProducerErrors.ZOMBIE_EPOCH);
  }

  /** 3101 and 3103 say the push itself is wrong: repeating it cannot help. */
  private static boolean hasProducerCode(Throwable error) {
    return codeInChain(error, QueueProducerErrors.INVALID_EPOCH)
        || codeInChain(error, QueueProducerErrors.INVALID_ROW_SEQUENCE_NUMBERS);
  }

  private static boolean codeInChain(Throwable error, int code) {
    Throwable current = error;
    for (int depth = 0; current != null && depth < 32; depth++) {
      if (current instanceof YtException yt && yt.hasCode(code)) {
        return true;
      }
      current = current.getCause();
    }
    return false;
  }
}
