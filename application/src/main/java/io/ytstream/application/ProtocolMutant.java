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
  IGNORE_TRIMMED_ROWS
}
