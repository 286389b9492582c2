package io.ytstream.simulation;

/** One of Spark's steps the driver runs; {@code task}/{@code attempt} are used by task steps. */
record Step(Kind kind, int task, int attempt, boolean speculative) {
  /** Spark's steps; a crash may be scheduled before and after each. */
  enum Kind {
    INIT,
    PLAN,
    WRITE_OFFSETS_TMP,
    RENAME_OFFSETS,
    COMMIT_SOURCES,
    PLAN_TASKS,
    CREATE_WRITER_FACTORY,
    TASK,
    REDUCE_TASK,
    SINK_COMMIT,
    WRITE_COMMITS_TMP,
    RENAME_COMMITS,
    BATCH_END;

    /**
     * Whether the step can move the consumer or change what the invariants look at (the checker
     * skips the others, to keep the simulation fast). In producer mode a task's pushes move the
     * producer's sessions, which the checker follows push by push.
     */
    boolean mayMoveConsumerOrOutput(SimMode mode) {
      return switch (this) {
        case PLAN, COMMIT_SOURCES, SINK_COMMIT -> true;
        case TASK -> mode == SimMode.PRODUCER;
        default -> false;
      };
    }
  }

  private static final Step[] PLAIN = plainSteps();

  /** The step of a kind without task or attempt: one shared value per kind. */
  static Step of(Kind kind) {
    return PLAIN[kind.ordinal()];
  }

  private static Step[] plainSteps() {
    Step[] steps = new Step[Kind.values().length];
    for (Kind kind : Kind.values()) {
      steps[kind.ordinal()] = new Step(kind, 0, 0, false);
    }
    return steps;
  }

  @Override
  public String toString() {
    return kind == Kind.TASK || kind == Kind.REDUCE_TASK
        ? kind + "(" + task + "." + attempt + (speculative ? " speculative" : "") + ")"
        : kind.name();
  }
}
