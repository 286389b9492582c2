package io.ytstream.ports;

/**
 * Queue producers (YTsaurus 24.1+): writes into a queue that the server deduplicates by session,
 * epoch and sequence number, so a replayed push writes nothing twice without a batch transaction.
 *
 * <p>Semantics, as the server has them:
 *
 * <ul>
 *   <li>{@link #createSession} makes a session with epoch 0 and sequence number -1, or bumps the
 *       epoch of an existing one, keeping its sequence number and, unless {@code userMeta} is
 *       given, its user_meta.
 *   <li>{@link #push} fails with {@link QueueProducerErrors#ZOMBIE_EPOCH} for an older epoch than
 *       the session's and {@link QueueProducerErrors#INVALID_EPOCH} for a newer one; with {@link
 *       QueueProducerErrors#INVALID_ROW_SEQUENCE_NUMBERS} when the rows' numbers are missing,
 *       negative or not strictly increasing. Rows numbered at or below the session's sequence
 *       number are skipped and counted; gaps are allowed; the session then holds the last number.
 *   <li>A push is one tablet transaction of its own (all or nothing; the per-tablet row limit 1717
 *       applies to it), or part of the open tablet transaction it is given, visible only when that
 *       commits. Two transactions pushing through one session conflict on its row (1700).
 *   <li>{@link #removeSession} deletes the session: a later creation starts again at epoch 0.
 * </ul>
 */
public interface QueueProducers {

  ProducerSession createSession(ProducerSessionId session);

  /** As {@link #createSession(ProducerSessionId)}, setting the session's user_meta. */
  ProducerSession createSession(ProducerSessionId session, Object userMeta);

  void removeSession(ProducerSessionId session);

  /** Pushes in a tablet transaction of its own. */
  PushResult push(ProducerPush push);

  /** Pushes inside the open tablet transaction {@code transaction}, applied at its commit. */
  PushResult push(ProducerPush push, TransactionId transaction);
}
