package io.ytstream.simulation;

import java.util.Locale;

/**
 * Deliberately broken protocol variants. Each must be caught by an invariant within 1,000 seeds,
 * which proves the checkers are not blind. {@link #NONE} is the correct protocol.
 */
public enum Mutant {
  NONE(SimMode.TRANSACTIONAL),
  /** Transactional: the consumer is advanced in a transaction of its own, not the batch's. */
  ADVANCE_OUTSIDE_TRANSACTION(SimMode.TRANSACTIONAL),
  /** Every consumer advance omits {@code old_offset}, so nothing fences a stale writer. */
  OMIT_OLD_OFFSET(SimMode.AT_LEAST_ONCE),
  /** Transactional: "already applied" is treated as "write again" (the rows are committed). */
  REAPPLY_ALREADY_APPLIED(SimMode.TRANSACTIONAL),
  /** {@code commits/N} is written before the sink has written and committed the batch. */
  COMMIT_LOG_BEFORE_SINK(SimMode.AT_LEAST_ONCE),
  /** The planner ignores {@code max_rows_per_partition} (and the per-tablet cap). */
  IGNORE_MAX_ROWS_CAP(SimMode.TRANSACTIONAL),
  /** Trimmed rows are skipped silently: no data-loss report, no failure. */
  IGNORE_TRIMMED_ROWS(SimMode.IDEMPOTENT);

  private final SimMode targetMode;

  Mutant(SimMode targetMode) {
    this.targetMode = targetMode;
  }

  /** The mode in which the mutant's broken step runs (the one the mutant test uses). */
  public SimMode targetMode() {
    return targetMode;
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
