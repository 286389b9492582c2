package io.ytstream.ports;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import java.util.List;
import java.util.OptionalLong;

/**
 * One tablet transaction. Writes are buffered and applied atomically at {@link #commit}; nothing is
 * visible to anyone (the transaction itself included) before that.
 *
 * <p>Failure semantics:
 *
 * <ul>
 *   <li>{@link #advanceConsumer} with {@code oldOffset} compares against the consumer row as of the
 *       transaction's start snapshot (missing = 0) and fails with code 3100 on mismatch.
 *   <li>{@link #commit} fails with 1700 (row-lock conflict on a sorted key written by a concurrent
 *       transaction that committed first), 1717 (more rows than the per-tablet limit in one
 *       tablet), 11000 (unknown or expired transaction), 11003 (already committed or aborted). A
 *       failed commit applies nothing.
 *   <li>{@link #commit} throws {@link io.ytstream.core.error.CommitOutcomeUnknownException} when
 *       the outcome is not known (it may or may not have been applied).
 *   <li>Any use after expiry fails with 11000.
 * </ul>
 */
public interface TabletTransaction {

  TransactionId id();

  /** Appends to an ordered table or upserts into a sorted table. */
  void insertRows(YPath table, List<Row> rows);

  /** Deletes rows of a sorted table by key (the rows hold the key columns). */
  void deleteRows(YPath table, List<Row> keys);

  /** The consumer's offsets for {@code queue} at this transaction's start snapshot. */
  StreamOffsets readConsumer(ConsumerId consumer, QueueId queue);

  void advanceConsumer(
      ConsumerId consumer, PartitionId partition, OptionalLong oldOffset, long newOffset);

  /** Renews the lease; a transaction not used or pinged for its timeout expires. */
  void ping();

  void commit();

  /** Aborts; aborting an already aborted transaction is a no-op, a committed one fails (11003). */
  void abort();
}
