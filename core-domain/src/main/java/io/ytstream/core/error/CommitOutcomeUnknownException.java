package io.ytstream.core.error;

/**
 * A commit whose outcome is not known: the request timed out or its response was lost, so the
 * transaction may or may not have been applied. The protocol resolves it by re-reading the consumer
 * rows the transaction wrote (see the recovery table).
 */
public class CommitOutcomeUnknownException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public CommitOutcomeUnknownException(String message, Throwable cause) {
    super(message, cause);
  }
}
