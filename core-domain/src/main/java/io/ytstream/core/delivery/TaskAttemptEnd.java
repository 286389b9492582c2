package io.ytstream.core.delivery;

import java.util.Objects;

/**
 * How one attempt of a transactional batch's write task ended, as the engine reports it: the task's
 * partition, what happened, and the engine's own words for it (for the error that names it).
 */
public record TaskAttemptEnd(int partition, Outcome outcome, String description) {

  /** What an attempt's end says about rows it may have left in the batch transaction. */
  public enum Outcome {
    /** The attempt finished and its report reached the driver. */
    SUCCEEDED,
    /** The engine's commit coordinator refused the attempt: it never inserted. */
    COMMIT_DENIED,
    /** The attempt threw before its first insert (a failed read, a bad value). */
    FAILED_BEFORE_INSERT,
    /** The attempt threw after its first insert (its writer aborted what it could). */
    FAILED_AFTER_INSERT,
    /** The attempt's executor was lost: nothing aborted what it may have inserted. */
    EXECUTOR_LOST,
    /** The engine killed the attempt (a stage cancelled, a speculative copy stopped). */
    KILLED,
    /** The attempt finished but its result (its report) never reached the driver. */
    RESULT_LOST,
    /** Any other end the engine reports (a fetch failure, an unknown reason). */
    OTHER
  }

  public TaskAttemptEnd {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(description, "description");
  }
}
