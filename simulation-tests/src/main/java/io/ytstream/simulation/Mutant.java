package io.ytstream.simulation;

import io.ytstream.application.ProtocolMutant;
import java.util.List;
import java.util.Locale;

/**
 * Deliberately broken protocol variants. Each must be caught by its own invariant within 1,000
 * seeds, which proves the checkers are not blind. {@link #NONE} is the correct protocol. All but
 * one are switches inside the shipped use cases ({@link ProtocolMutant}), so a caught mutant is a
 * bug the shipped code could have; {@link #COMMIT_LOG_BEFORE_SINK} breaks Spark's own order, which
 * only the driver's step queue holds.
 */
public enum Mutant {
  NONE(SimMode.TRANSACTIONAL, ProtocolMutant.NONE, null),
  /** Transactional: the consumer is advanced in a transaction of its own, not the batch's. */
  ADVANCE_OUTSIDE_TRANSACTION(
      SimMode.TRANSACTIONAL,
      ProtocolMutant.ADVANCE_OUTSIDE_TRANSACTION,
      Verifier.Invariant.CONSUMER_AHEAD_OF_OUTPUT),
  /**
   * Every consumer advance omits {@code old_offset}, so nothing fences a stale writer: a driver's
   * advance that lands after a newer driver moved the consumer on moves it back. Caught in both
   * modes that advance the consumer outside a batch transaction. Inside one (transactional) the
   * mutant changes nothing: the consumer is read in the transaction's snapshot, and a concurrent
   * advance of the same rows makes the commit fail with a row lock conflict, first committer wins,
   * whether {@code old_offset} is given or not.
   */
  OMIT_OLD_OFFSET(
      SimMode.AT_LEAST_ONCE,
      ProtocolMutant.OMIT_OLD_OFFSET,
      Verifier.Invariant.OFFSETS_MONOTONIC,
      SimMode.IDEMPOTENT),
  /** Transactional: "already applied" is treated as "write again" (the rows are committed). */
  REAPPLY_ALREADY_APPLIED(
      SimMode.TRANSACTIONAL, ProtocolMutant.REAPPLY_ALREADY_APPLIED, Verifier.Invariant.DUPLICATE),
  /** {@code commits/N} is written before the sink has written and committed the batch. */
  COMMIT_LOG_BEFORE_SINK(
      SimMode.AT_LEAST_ONCE, ProtocolMutant.NONE, Verifier.Invariant.CONSUMER_AHEAD_OF_OUTPUT),
  /** The planner ignores {@code max_rows_per_partition} (and the per-tablet cap). */
  IGNORE_MAX_ROWS_CAP(
      SimMode.TRANSACTIONAL, ProtocolMutant.IGNORE_MAX_ROWS_CAP, Verifier.Invariant.BATCH_BOUND),
  /** Trimmed rows are skipped silently: no data-loss report, no failure. */
  IGNORE_TRIMMED_ROWS(
      SimMode.IDEMPOTENT, ProtocolMutant.IGNORE_TRIMMED_ROWS, Verifier.Invariant.SILENT_DATA_LOSS),
  /**
   * Producer: a push numbers its rows from 0 instead of its base, so later pushes are skipped as
   * already written.
   */
  PUSH_NUMBERED_FROM_ZERO(
      SimMode.PRODUCER, ProtocolMutant.PUSH_NUMBERED_FROM_ZERO, Verifier.Invariant.LOST_ROW),
  /** Producer: a push does not record its source position in the session's user_meta. */
  PUSH_WITHOUT_USER_META(
      SimMode.PRODUCER,
      ProtocolMutant.PUSH_WITHOUT_USER_META,
      Verifier.Invariant.USER_META_MATCHES_OUTPUT),
  /** Producer: a fenced push (3102) is reported as written. */
  FENCED_PUSH_AS_WRITTEN(
      SimMode.PRODUCER, ProtocolMutant.FENCED_PUSH_AS_WRITTEN, Verifier.Invariant.LOST_ROW),
  /** Producer: a push whose outcome is unknown is taken as landed, not sent again. */
  UNKNOWN_PUSH_AS_WRITTEN(
      SimMode.PRODUCER, ProtocolMutant.UNKNOWN_PUSH_AS_WRITTEN, Verifier.Invariant.LOST_ROW),
  /** Producer: every task of a batch opens one session, so shares of a batch share its numbers. */
  SESSION_SHARED_BY_TASKS(
      SimMode.PRODUCER, ProtocolMutant.SESSION_SHARED_BY_TASKS, Verifier.Invariant.LOST_ROW),
  /**
   * Producer: a share is pushed although its session holds a later batch; every row is skipped, but
   * the session's user_meta goes back to the old batch.
   */
  PUSH_BEHIND_LATER_BATCH(
      SimMode.PRODUCER,
      ProtocolMutant.PUSH_BEHIND_LATER_BATCH,
      Verifier.Invariant.USER_META_MATCHES_OUTPUT),
  /** Producer: a fenced push removes and recreates the session, which forgets its numbers. */
  FENCED_PUSH_RESETS_SESSION(
      SimMode.PRODUCER,
      ProtocolMutant.FENCED_PUSH_RESETS_SESSION,
      Verifier.Invariant.SESSION_MONOTONIC);

  private final SimMode targetMode;
  private final ProtocolMutant protocol;
  private final Verifier.Invariant caughtBy;

  /** A second mode the test must catch the mutant in, or null. */
  private final SimMode alsoCaughtIn;

  Mutant(SimMode targetMode, ProtocolMutant protocol, Verifier.Invariant caughtBy) {
    this(targetMode, protocol, caughtBy, null);
  }

  Mutant(
      SimMode targetMode,
      ProtocolMutant protocol,
      Verifier.Invariant caughtBy,
      SimMode alsoCaughtIn) {
    this.targetMode = targetMode;
    this.protocol = protocol;
    this.caughtBy = caughtBy;
    this.alsoCaughtIn = alsoCaughtIn;
  }

  /** The switch inside the shipped use cases ({@link ProtocolMutant#NONE} for the others). */
  ProtocolMutant protocol() {
    return protocol;
  }

  /** The invariant that names what this mutant breaks (null for {@link #NONE}). */
  Verifier.Invariant caughtBy() {
    return caughtBy;
  }

  /** The mode in which the mutant's broken step runs (the one {@code --mutant all} uses). */
  public SimMode targetMode() {
    return targetMode;
  }

  /** Every mode in which the mutant test must catch it, the target mode first. */
  List<SimMode> caughtIn() {
    return alsoCaughtIn == null ? List.of(targetMode) : List.of(targetMode, alsoCaughtIn);
  }

  public String cliName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public static Mutant parse(String name) {
    for (Mutant m : values()) {
      if (m.cliName().equals(name) || m.name().equals(name)) {
        return m;
      }
    }
    StringBuilder known = new StringBuilder();
    for (Mutant m : values()) {
      known.append(' ').append(m.cliName());
    }
    throw new IllegalArgumentException("unknown mutant '" + name + "'; known:" + known);
  }
}
