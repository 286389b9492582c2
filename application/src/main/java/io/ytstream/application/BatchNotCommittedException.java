package io.ytstream.application;

import io.ytstream.core.commit.CommitOutcome;

/**
 * A transactional batch did not commit, and its transaction is aborted: nothing was written and the
 * consumer did not move. {@link #outcome()} says why: {@link CommitOutcome#RETRY_LATER} (the batch
 * runs again with a new transaction when the query restarts; an unknown outcome that did not land
 * is one), {@link CommitOutcome#FENCED} (another writer moved the consumer) or {@link
 * CommitOutcome#FAILED} (running it again cannot help).
 */
public final class BatchNotCommittedException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  private final CommitOutcome outcome;

  public BatchNotCommittedException(CommitOutcome outcome, String message, Throwable cause) {
    super(message, cause);
    this.outcome = outcome;
  }

  public CommitOutcome outcome() {
    return outcome;
  }
}
