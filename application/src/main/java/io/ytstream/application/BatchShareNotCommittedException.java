package io.ytstream.application;

/**
 * The tablet transaction of a task's share of a batch did not commit: nothing of the share is in
 * the queue, and running the task again pushes it in full (its session still holds nothing of the
 * batch).
 */
public final class BatchShareNotCommittedException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  BatchShareNotCommittedException(String message, Throwable cause) {
    super(message, cause);
  }
}
