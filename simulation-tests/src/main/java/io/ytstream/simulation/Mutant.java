package io.ytstream.simulation;

import io.ytstream.simulation.check.ConsumerAheadOfOutput;
import java.util.List;
import java.util.Locale;

/**
 * Deliberately broken variants of Spark's own order, which only the driver's step queue holds, so
 * they need no hook in shipped code. Each must be caught by its own invariant within 1,000 seeds,
 * which proves the checkers are not blind. {@link #NONE} is the correct order. Mistakes inside the
 * shipped use cases are PIT's mutants and the hand edits of {@code MUTATION.md}, not switches.
 */
public enum Mutant {
  NONE(SimMode.TRANSACTIONAL, null),
  /** {@code commits/N} is written before the sink has written and committed the batch. */
  COMMIT_LOG_BEFORE_SINK(SimMode.AT_LEAST_ONCE, ConsumerAheadOfOutput.PROPERTY.name());

  private final SimMode targetMode;
  private final String caughtBy;

  Mutant(SimMode targetMode, String caughtBy) {
    this.targetMode = targetMode;
    this.caughtBy = caughtBy;
  }

  /** The checker (property name) that names what this mutant breaks (null for {@link #NONE}). */
  String caughtBy() {
    return caughtBy;
  }

  /** The mode in which the mutant's broken step runs (the one {@code --mutant all} uses). */
  public SimMode targetMode() {
    return targetMode;
  }

  /** Every mode in which the mutant test must catch it. */
  List<SimMode> caughtIn() {
    return List.of(targetMode);
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
