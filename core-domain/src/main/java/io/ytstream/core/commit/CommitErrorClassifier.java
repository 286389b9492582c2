package io.ytstream.core.commit;

import io.ytstream.core.error.CommitOutcomeUnknownException;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;

/**
 * Classifies what a commit attempt threw. Every throwable gets exactly one class; codes are
 * searched in the whole error tree (the top-level code is often a generic wrapper), most specific
 * decision first: an offset conflict fences even when wrapped in a retriable error.
 */
public final class CommitErrorClassifier {

  private CommitErrorClassifier() {}

  /** {@code null} means the commit returned normally. */
  public static CommitOutcome classify(Throwable error) {
    if (error == null) {
      return CommitOutcome.COMMITTED;
    }
    Throwable cause = significantCause(error);
    if (cause instanceof CommitOutcomeUnknownException) {
      return CommitOutcome.UNKNOWN;
    }
    if (!(cause instanceof YtException yt)) {
      // A transport failure (timeout, reset connection) after the request was sent.
      return CommitOutcome.UNKNOWN;
    }
    if (yt.hasCode(YtErrorCode.CONSUMER_OFFSET_CONFLICT)) {
      return CommitOutcome.FENCED;
    }
    if (yt.hasCode(YtErrorCode.INVALID_TRANSACTION_STATE)) {
      // "already committed or aborted": only the consumer rows tell which.
      return CommitOutcome.UNKNOWN;
    }
    if (yt.hasCode(YtErrorCode.TOO_MANY_ROWS_IN_TRANSACTION)
        || yt.hasCode(YtErrorCode.AUTHENTICATION_ERROR)
        || yt.hasCode(YtErrorCode.AUTHORIZATION_ERROR)
        || yt.hasCode(YtErrorCode.HTTP_UNAUTHORIZED)
        || yt.hasCode(YtErrorCode.RESOLVE_ERROR)) {
      return CommitOutcome.FAILED;
    }
    if (yt.hasCode(YtErrorCode.TRANSACTION_LOCK_CONFLICT)
        || yt.hasCode(YtErrorCode.NO_SUCH_TRANSACTION)
        || yt.hasCode(YtErrorCode.ROW_IS_BLOCKED)
        || yt.hasCode(YtErrorCode.REQUEST_THROTTLED)
        || yt.hasCode(YtErrorCode.TABLET_NOT_MOUNTED)
        || yt.hasCode(YtErrorCode.NO_SUCH_TABLET)
        || yt.hasCode(YtErrorCode.INVALID_MOUNT_REVISION)
        || yt.hasCode(YtErrorCode.INVALID_TABLET_STATE)
        || yt.hasCode(YtErrorCode.TABLE_MOUNT_INFO_NOT_READY)
        || yt.hasCode(YtErrorCode.PARTICIPANT_FAILED_TO_PREPARE)
        || yt.hasCode(YtErrorCode.SOME_PARTICIPANTS_ARE_DOWN)
        || yt.hasCode(YtErrorCode.HTTP_TOO_MANY_REQUESTS)
        || yt.hasCode(YtErrorCode.HTTP_SERVICE_UNAVAILABLE)) {
      return CommitOutcome.RETRY_LATER;
    }
    // An error we do not know: we cannot prove it was not applied.
    return CommitOutcome.UNKNOWN;
  }

  /**
   * The first {@link YtException} or {@link CommitOutcomeUnknownException} in the cause chain
   * (wrappers such as {@code CompletionException} or Spark's task errors hide them), else the error
   * itself.
   */
  private static Throwable significantCause(Throwable error) {
    Throwable current = error;
    for (int depth = 0; current != null && depth < 32; depth++) {
      if (current instanceof YtException || current instanceof CommitOutcomeUnknownException) {
        return current;
      }
      current = current.getCause();
    }
    return error;
  }
}
