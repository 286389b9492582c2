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
 *   <li>Within one transaction a session's number is the one the transaction's last push through it
 *       left, so a second copy of a push in the same transaction is skipped.
 *   <li>{@link #removeSession} deletes the session: a later creation starts again at epoch 0. The
 *       session's queue is only part of its key: a session for a queue that does not exist is
 *       created.
 *   <li>Permissions are checked before anything else: a push needs {@code write} on the producer,
 *       {@code write} on the queue and {@code read} on the producer; a creation {@code write} and
 *       {@code read} on the producer; a removal {@code write} on it. A denied push fails at the
 *       push, inside a transaction too (901, AuthorizationError).
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
