package io.ytstream.core.delivery;

import io.ytstream.core.commit.CommitErrorClassifier;
import io.ytstream.core.commit.CommitOutcome;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.StreamOffsets;
import java.util.List;
import java.util.Objects;

/**
 * The state machine of one batch in transactional mode. The driver opens a tablet transaction,
 * executors write into it, the driver reads the consumer rows inside it and lets {@link
 * TransactionalRecovery} decide, advances every partition with {@code old_offset = lower}, and
 * commits. An unknown commit outcome is resolved by re-reading the consumer rows.
 *
 * <pre>
 * PLANNED -transactionStarted-> OPEN -rowsWritten-> WRITTEN -consumerRead->
 *     COMMITTING (decision COMMIT) | ALREADY_APPLIED | FENCED
 * COMMITTING -commitFinished-> COMMITTED | RETRY | FENCED | FAILED | OUTCOME_UNKNOWN
 * OUTCOME_UNKNOWN -outcomeResolved-> COMMITTED | RETRY | FENCED
 * any non-final state -abandoned-> RETRY   (task failure, expiry, driver restart)
 * </pre>
 *
 * Not thread-safe: the driver owns it. Invalid transitions throw {@link IllegalStateException}.
 */
public final class TransactionalBatchCommit {

  /** The states; {@link #isFinal()} tells which end the batch. */
  public enum State {
    PLANNED,
    OPEN,
    WRITTEN,
    COMMITTING,
    OUTCOME_UNKNOWN,
    COMMITTED,
    ALREADY_APPLIED,
    RETRY,
    FENCED,
    FAILED;

    public boolean isFinal() {
      return this == COMMITTED
          || this == ALREADY_APPLIED
          || this == RETRY
          || this == FENCED
          || this == FAILED;
    }

    /** The batch's rows and offsets are in the output exactly once. */
    public boolean isSuccess() {
      return this == COMMITTED || this == ALREADY_APPLIED;
    }
  }

  private final long batchId;
  private final List<OffsetRange> ranges;
  private State state = State.PLANNED;
  private String reason = "";

  public TransactionalBatchCommit(long batchId, List<OffsetRange> ranges) {
    if (ranges.isEmpty()) {
      throw new IllegalArgumentException("batch " + batchId + " has no rows: it is not run");
    }
    for (OffsetRange range : ranges) {
      if (range.isEmpty()) {
        throw new IllegalArgumentException(
            "batch " + batchId + " lists the empty range " + range + ": plans skip empty ranges");
      }
    }
    this.batchId = batchId;
    this.ranges = List.copyOf(ranges);
  }

  public long batchId() {
    return batchId;
  }

  public List<OffsetRange> ranges() {
    return ranges;
  }

  public State state() {
    return state;
  }

  /** Why the batch is in its state (for logs and errors); empty while it runs normally. */
  public String reason() {
    return reason;
  }

  public void transactionStarted() {
    move(State.PLANNED, State.OPEN, "");
  }

  public void rowsWritten() {
    move(State.OPEN, State.WRITTEN, "");
  }

  /**
   * The consumer rows as read inside the batch transaction. On COMMIT the driver advances every
   * range's partition from {@code lower} to {@code upper} and commits; on ALREADY_APPLIED it aborts
   * and reports success; on FENCED it aborts and fails the query.
   */
  public RecoveryVerdict consumerRead(StreamOffsets consumerAtSnapshot) {
    expect(State.WRITTEN);
    RecoveryVerdict verdict = TransactionalRecovery.decide(ranges, consumerAtSnapshot);
    switch (verdict.decision()) {
      case COMMIT -> move(State.WRITTEN, State.COMMITTING, "");
      case ALREADY_APPLIED -> move(State.WRITTEN, State.ALREADY_APPLIED, verdict.reason());
      case FENCED -> move(State.WRITTEN, State.FENCED, verdict.reason());
    }
    return verdict;
  }

  /**
   * The advance-and-commit step ended; {@code error} is null on success.
   *
   * @return the class of the outcome
   */
  public CommitOutcome commitFinished(Throwable error) {
    expect(State.COMMITTING);
    CommitOutcome outcome = CommitErrorClassifier.classify(error);
    String why = error == null ? "" : String.valueOf(error.getMessage());
    switch (outcome) {
      case COMMITTED -> move(State.COMMITTING, State.COMMITTED, "");
      case RETRY_LATER -> move(State.COMMITTING, State.RETRY, why);
      case FENCED -> move(State.COMMITTING, State.FENCED, why);
      case FAILED -> move(State.COMMITTING, State.FAILED, why);
      case UNKNOWN -> move(State.COMMITTING, State.OUTCOME_UNKNOWN, why);
    }
    return outcome;
  }

  /** The consumer rows re-read after an unknown outcome: they say whether the commit landed. */
  public RecoveryVerdict outcomeResolved(StreamOffsets consumerNow) {
    expect(State.OUTCOME_UNKNOWN);
    RecoveryVerdict verdict = TransactionalRecovery.decide(ranges, consumerNow);
    switch (verdict.decision()) {
      case ALREADY_APPLIED -> move(State.OUTCOME_UNKNOWN, State.COMMITTED, "commit landed");
      case COMMIT -> move(State.OUTCOME_UNKNOWN, State.RETRY, "commit did not land");
      case FENCED -> move(State.OUTCOME_UNKNOWN, State.FENCED, verdict.reason());
    }
    return verdict;
  }

  /** The attempt ends without a commit (task failure, expiry, lost driver): run the batch again. */
  public void abandoned(String why) {
    Objects.requireNonNull(why, "why");
    if (state.isFinal() || state == State.OUTCOME_UNKNOWN) {
      throw new IllegalStateException(
          "batch " + batchId + " cannot be abandoned in state " + state);
    }
    state = State.RETRY;
    reason = why;
  }

  private void expect(State wanted) {
    if (state != wanted) {
      throw new IllegalStateException(
          "batch " + batchId + " is in state " + state + ", expected " + wanted);
    }
  }

  private void move(State from, State to, String why) {
    expect(from);
    state = to;
    reason = why;
  }
}
