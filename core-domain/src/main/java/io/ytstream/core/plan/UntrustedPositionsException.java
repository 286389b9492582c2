package io.ytstream.core.plan;

/**
 * Thrown before planning when a checkpoint's offsets no longer fit a queue: the queue has fewer
 * partitions than the offsets name, or a partition ends before its offset. Reading on would read
 * other rows than the offsets mean, so the query stops instead; the message says what changed and
 * what the user can do.
 */
public class UntrustedPositionsException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  public UntrustedPositionsException(String message) {
    super(message);
  }
}
