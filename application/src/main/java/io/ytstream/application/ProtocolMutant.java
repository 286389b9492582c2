package io.ytstream.application;

/**
 * A deliberately broken variant of one protocol step, for the simulation's mutant tests: a mutant
 * the invariants catch is a bug the shipped use cases could have. Production code never passes
 * anything but {@link #NONE}: the use cases' public constructors choose it, no option or setting
 * maps to this type, and an architecture rule keeps every class outside this package and the
 * simulation from naming it.
 */
public enum ProtocolMutant {
  /** The correct protocol. */
  NONE,
  /** Transactional: the consumer is advanced in a transaction of its own, not the batch's. */
  ADVANCE_OUTSIDE_TRANSACTION,
  /**
   * Every consumer advance omits {@code old_offset}, so nothing fences a stale writer outside a
   * batch transaction (inside one, a concurrent advance still fails the commit).
   */
  OMIT_OLD_OFFSET,
  /** Transactional: "already applied" is treated as "write again" (the rows are committed). */
  REAPPLY_ALREADY_APPLIED,
  /** The planner ignores {@code max_rows_per_partition} (and the per-tablet cap). */
  IGNORE_MAX_ROWS_CAP,
  /** Trimmed rows are skipped silently: no data-loss report, no failure. */
  IGNORE_TRIMMED_ROWS,
  /**
   * A producer push numbers its rows from 0, their index within the push, instead of from the base
   * the caller derived, so every push after the first few is skipped as already written.
   */
  PUSH_NUMBERED_FROM_ZERO,
  /** A producer push leaves the session's user_meta as it was instead of recording its position. */
  PUSH_WITHOUT_USER_META,
  /**
   * A fenced producer push (3102), or a share whose transaction's commit meets the session row's
   * lock (1700: another writer opened the session after the share's transaction started), is
   * reported as written, so the task succeeds without its rows.
   */
  FENCED_PUSH_AS_WRITTEN,
  /**
   * A producer push whose outcome is unknown (a lost answer or a lost request) is taken as landed
   * instead of being sent again; a share whose commit's outcome is unknown is taken as landed
   * without reading the session.
   */
  UNKNOWN_PUSH_AS_WRITTEN,
  /**
   * A fenced producer push (3102) takes the session back: it removes the session, creates it again
   * and pushes at the new epoch, so the session forgets the sequence numbers it held; a share whose
   * commit meets the session row's lock (1700) removes and creates the session the same way.
   */
  FENCED_PUSH_RESETS_SESSION,
  /**
   * Every task of a micro-batch opens the session of task partition 0, so the tasks' shares of one
   * batch share one session and its numbers.
   */
  SESSION_SHARED_BY_TASKS,
  /**
   * A share is pushed even when its session already holds a later batch (a lagging driver re-runs
   * an old batch): the server skips every row, and the push sets the session's user_meta back.
   */
  PUSH_BEHIND_LATER_BATCH
}
