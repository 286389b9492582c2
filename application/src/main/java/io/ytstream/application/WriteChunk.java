package io.ytstream.application;

import io.ytstream.core.commit.CommitErrorClassifier;
import io.ytstream.core.commit.CommitOutcome;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.OutputTables;
import io.ytstream.ports.Row;
import java.util.List;

/**
 * Writes one chunk of a writer's rows to an output table outside a batch transaction (at-least-once
 * and idempotent-receiver writers): one request, a tablet transaction of its own, appended to an
 * ordered table or upserted into a sorted one.
 *
 * <p>The one rule for a failed chunk: throttling and unavailable tablets ({@link
 * CommitOutcome#RETRY_LATER}) and an unknown outcome ({@link CommitOutcome#UNKNOWN}) are written
 * again, up to {@link #ATTEMPTS} attempts in all; anything else (bad rows, a missing table, no
 * permission) and an interruption (a stopping query) fail at once. A retried unknown outcome may
 * have landed, so an ordered output may get the chunk twice, which at-least-once allows and an
 * upsert by key absorbs.
 */
@DrivingUseCase
public final class WriteChunk {

  /** Attempts per chunk, the first included. */
  public static final int ATTEMPTS = 3;

  /** Hears of each failed attempt that is tried again. */
  @FunctionalInterface
  public interface RetryListener {
    void retrying(int failedAttempt, CommitOutcome outcome, RuntimeException error);

    RetryListener NONE = (attempt, outcome, error) -> {};
  }

  private final OutputTables tables;
  private final RetryListener onRetry;

  public WriteChunk(OutputTables tables, RetryListener onRetry) {
    this.tables = tables;
    this.onRetry = onRetry;
  }

  /**
   * Writes {@code rows} to {@code table} ({@code sorted}: upsert, else append); throws what the
   * last attempt threw when the chunk is not written.
   */
  public void write(YPath table, boolean sorted, List<Row> rows) {
    if (rows.isEmpty()) {
      return;
    }
    for (int attempt = 1; ; attempt++) {
      try {
        if (sorted) {
          tables.upsert(table, rows);
        } else {
          tables.append(table, rows);
        }
        return;
      } catch (RuntimeException e) {
        CommitOutcome outcome = CommitErrorClassifier.classify(e);
        if (!writesAgain(e, outcome, attempt)) {
          throw e;
        }
        onRetry.retrying(attempt, outcome, e);
      }
    }
  }

  /** Whether a chunk whose attempt number {@code attempt} failed with {@code error} is retried. */
  static boolean writesAgain(RuntimeException error, CommitOutcome outcome, int attempt) {
    return (outcome == CommitOutcome.RETRY_LATER || outcome == CommitOutcome.UNKNOWN)
        && attempt < ATTEMPTS
        && !Interruptions.isInterruption(error);
  }
}
