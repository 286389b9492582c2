package io.ytstream.application;

/**
 * A task's share of a batch holds more rows for one output tablet than one push may write: a push
 * is one tablet transaction, and the server refuses a transaction with more rows per tablet than
 * its limit (1717). Raised before anything is pushed.
 */
public final class BatchShareTooLargeException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final long tablet;
  private final long rows;
  private final long limit;

  BatchShareTooLargeException(String message, long tablet, long rows, long limit) {
    super(message);
    this.tablet = tablet;
    this.rows = rows;
    this.limit = limit;
  }

  /** The output tablet with the most rows, or -1 for rows that name no tablet. */
  public long tablet() {
    return tablet;
  }

  /** The share's rows for that tablet. */
  public long rows() {
    return rows;
  }

  /** The most rows per tablet one push may write. */
  public long limit() {
    return limit;
  }
}
