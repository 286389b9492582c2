package io.ytstream.ports;

import io.ytstream.core.model.YPath;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * One master (Cypress) transaction. Its appends and attribute writes are seen by itself and by
 * nobody else until {@link #commit}, which applies all of them at once; {@link #abort}, or a lease
 * that ran out, drops all of them.
 *
 * <p>Failure semantics: any use of a transaction that is unknown, finished or expired fails with
 * 11000 (NoSuchTransaction); {@link #commit} throws {@link
 * io.ytstream.core.error.CommitOutcomeUnknownException} when the outcome is not known, so the
 * caller reads the attribute it wrote to learn it.
 */
public interface MasterTransaction {

  TransactionId id();

  /**
   * Starts a transaction nested in this one, its lease lasting {@code timeout}; the caller renews
   * it. Its changes reach this transaction at its {@link #commit} (and the table only when the
   * outermost one commits); its {@link #abort}, or this one's, drops them. A writer task puts its
   * share of a batch in one, so that a failed or retried attempt leaves nothing in the batch.
   */
  MasterTransaction startNested(Duration timeout);

  /**
   * Appends {@code rows} to the static table {@code table} ({@code <append=%true>}), reading them
   * as they are sent: an adapter holds a bounded share of them at a time, never all. A dynamic
   * table fails the call with a {@code YtException}, a column the table's strict schema does not
   * have with 307 (SchemaViolation); a value of the wrong type fails it with the server's {@code
   * YtException} or, from an adapter that checks values before sending, an {@code
   * IllegalArgumentException}. An adapter that sends in chunks may have applied the chunks before
   * the failing one to the transaction: after a failed append, abort the transaction.
   */
  void append(YPath table, Iterator<Row> rows);

  /** Every row of the static table as this transaction sees it (its own appends included). */
  List<Row> readAll(YPath table);

  /** Attribute {@code name} of {@code table} as this transaction sees it. */
  Optional<Object> attribute(YPath table, String name);

  /** Sets attribute {@code name} of {@code table} in this transaction. */
  void setAttribute(YPath table, String name, Object value);

  /** Renews the lease. */
  void ping();

  void commit();

  /** Aborts; aborting a transaction that is already gone is a no-op. */
  void abort();
}
